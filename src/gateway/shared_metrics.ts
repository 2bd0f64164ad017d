import { exposition, type FamilyText } from "../metrics/registry.ts";
import type { ClusterChannel } from "./cluster_sync.ts";

/** How often a process shares its metrics with the other workers of its instance. */
export const SHARE_INTERVAL_MS = 5_000;
/** A worker not heard from for this long is gone: its series leave the exposition. */
const STALE_MS = 3 * SHARE_INTERVAL_MS;

/** One process's metrics as it shared them. */
export interface MetricsSnapshot {
  readonly origin: string;
  readonly worker: string;
  readonly instance: string;
  readonly at: number;
  readonly families: FamilyText[];
}

/** Who this process is, in its metrics. */
export interface MetricsIdentity {
  readonly origin: string;
  readonly worker: string;
  readonly instance: string;
}

/**
 * `/metrics` for an instance that runs several workers (`serve --workers N`): the kernel hands a scrape to
 * any one worker, so each worker shares its rendered families over the cluster channel every few seconds,
 * and a scrape answers with its own series and the latest of its instance's other workers (told apart by
 * the `worker` label; at most SHARE_INTERVAL_MS old). Other instances on the same database are scraped as
 * their own targets, so their snapshots are ignored here (summing targets would count them twice).
 */
export class SharedMetrics {
  readonly #local: () => FamilyText[];
  readonly #identity: MetricsIdentity;
  readonly #now: () => number;
  readonly #peers = new Map<string, MetricsSnapshot>();
  #channel: ClusterChannel<MetricsSnapshot> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(local: () => FamilyText[], identity: MetricsIdentity, now: () => number) {
    this.#local = local;
    this.#identity = identity;
    this.#now = now;
  }

  /** Takes the other processes' snapshots (the cluster channel's receiver). */
  receive(snapshots: readonly MetricsSnapshot[]): void {
    for (const snapshot of snapshots) {
      // Same worker label as ours (two single processes on one home): their series would collide with ours.
      if (snapshot.instance !== this.#identity.instance || snapshot.worker === this.#identity.worker) {
        continue;
      }
      for (const [origin, peer] of this.#peers) {
        if (peer.worker === snapshot.worker && origin !== snapshot.origin) this.#peers.delete(origin);
      }
      this.#peers.set(snapshot.origin, snapshot);
    }
  }

  /** Starts sharing on `channel` (which publishes only while other processes are alive). */
  start(channel: ClusterChannel<MetricsSnapshot>): void {
    this.#channel = channel;
    this.#timer ??= setInterval(() => this.share(), SHARE_INTERVAL_MS);
    Deno.unrefTimer(this.#timer);
  }

  /** Publishes this process's snapshot now. Public for tests. */
  share(): void {
    this.#channel?.publish({ ...this.#identity, at: this.#now(), families: this.#local() });
  }

  /** Stops sharing. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The exposition text: this process's series and its instance's other live workers'. */
  render(): string {
    const oldest = this.#now() - STALE_MS;
    for (const [origin, peer] of this.#peers) if (peer.at < oldest) this.#peers.delete(origin);
    return exposition(this.#local(), [...this.#peers.values()].map((p) => p.families));
  }
}
