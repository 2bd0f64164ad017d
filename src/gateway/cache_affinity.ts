import { createHash } from "node:crypto";
import type { AffinityRecord, Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { ClusterChannel, ClusterSync } from "./cluster_sync.ts";

/** A binding unused this long is forgotten (upstream prompt caches live minutes to an hour). */
export const AFFINITY_TTL_MS = 60 * 60_000;
/** Most bindings kept; the least recently used go first. */
export const AFFINITY_MAX_ENTRIES = 100_000;
/** A binding still in use is written back at most this often, so busy sessions cost no write each. */
const TOUCH_WRITE_MS = 5 * 60_000;
/** After this many new bindings the table drops rows unused for the TTL, so it cannot grow without end. */
const PRUNE_EVERY_BINDINGS = 10_000;

interface Binding {
  accountId: string;
  usedAt: number;
  writtenAt: number;
}

/**
 * Prompt-cache affinity: a conversation (its cache key, scoped to the route's prefix) stays on the
 * account that served it, so the upstream's prompt cache keeps hitting. Bindings live in memory (a Map
 * in least-recently-used order), are loaded at start, and are written through the batched writer when
 * they are made, when they move, and every few minutes while in use. Keys are stored as SHA-256 only.
 */
export class CacheAffinity {
  readonly #bindings = new Map<string, Binding>();
  readonly #store: Store;
  readonly #writer: BatchedWriter;
  readonly #write = (records: AffinityRecord[]) => this.#store.cacheAffinity.upsert(records);
  #newSincePrune = 0;

  /** Other processes on the database (workers, instances): a binding made or moved here is told to them. */
  readonly #peers: ClusterChannel<AffinityRecord> | null;

  constructor(store: Store, writer: BatchedWriter, now: number, cluster?: ClusterSync) {
    this.#store = store;
    this.#writer = writer;
    this.#peers = cluster?.channel<AffinityRecord>("affinity", (records) => {
      for (const r of records) this.#adopt(r);
    }) ?? null;
    store.cacheAffinity.prune(now - AFFINITY_TTL_MS);
    for (const r of store.cacheAffinity.recent(now - AFFINITY_TTL_MS, AFFINITY_MAX_ENTRIES)) {
      this.#bindings.set(r.keyHash, { accountId: r.accountId, usedAt: r.usedAt, writtenAt: r.usedAt });
    }
  }

  /** The stored form of a cache key on a prefix. */
  static hash(prefix: string, key: string): string {
    return createHash("sha256").update(`${prefix}\u0000${key}`, "utf8").digest("hex").slice(0, 40);
  }

  /** The account bound to a hashed key, unless the binding expired. */
  lookup(keyHash: string, now: number): string | undefined {
    const binding = this.#bindings.get(keyHash);
    if (binding === undefined) return undefined;
    if (binding.usedAt <= now - AFFINITY_TTL_MS) {
      this.#bindings.delete(keyHash);
      return undefined;
    }
    return binding.accountId;
  }

  /** Binds (or moves, or refreshes) a key to the account that just served it. */
  bind(keyHash: string, accountId: string, now: number): void {
    const previous = this.#bindings.get(keyHash);
    const moved = previous === undefined || previous.accountId !== accountId;
    const due = moved || now - previous.writtenAt >= TOUCH_WRITE_MS;
    // Re-inserting keeps the Map in least-recently-used order.
    this.#bindings.delete(keyHash);
    this.#bindings.set(keyHash, { accountId, usedAt: now, writtenAt: due ? now : previous!.writtenAt });
    if (this.#bindings.size > AFFINITY_MAX_ENTRIES) {
      this.#bindings.delete(this.#bindings.keys().next().value!);
    }
    if (due) this.#writer.collect(this.#write, { keyHash, accountId, usedAt: now });
    if (moved) this.#peers?.publish({ keyHash, accountId, usedAt: now });
    if (previous === undefined && ++this.#newSincePrune >= PRUNE_EVERY_BINDINGS) {
      this.#newSincePrune = 0;
      this.#writer.enqueue(() => this.#store.cacheAffinity.prune(now - AFFINITY_TTL_MS));
    }
  }

  /** A binding another process made: taken over unless this process has used the key since. */
  #adopt(record: AffinityRecord): void {
    const current = this.#bindings.get(record.keyHash);
    if (current !== undefined && current.usedAt > record.usedAt) return;
    this.#bindings.delete(record.keyHash);
    this.#bindings.set(record.keyHash, {
      accountId: record.accountId,
      usedAt: record.usedAt,
      writtenAt: record.usedAt,
    });
    if (this.#bindings.size > AFFINITY_MAX_ENTRIES) {
      this.#bindings.delete(this.#bindings.keys().next().value!);
    }
  }

  /** How many live bindings each account holds (Routing screen). */
  countsByAccount(now: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const binding of this.#bindings.values()) {
      if (binding.usedAt <= now - AFFINITY_TTL_MS) continue;
      counts.set(binding.accountId, (counts.get(binding.accountId) ?? 0) + 1);
    }
    return counts;
  }
}
