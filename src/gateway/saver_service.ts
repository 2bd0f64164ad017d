import type { RuntimeSettings } from "../config/runtime_settings.ts";
import type { NeutralRequest } from "../model/mod.ts";
import { buildSavers, runSavers, type Saver, type SaverContext } from "../savers/mod.ts";
import { SaverStatsRepo } from "../storage/saver_stats_repo.ts";
import type { Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";

/** Request header that turns every saver off for one request. */
export const SAVERS_BYPASS_HEADER = "x-gateway-savers";

/**
 * Runs the enabled token savers on each request. Savers are rebuilt only when their settings change;
 * per-saver savings go to the database through the batched writer, so they survive restarts.
 */
export class SaverService {
  readonly #repo: SaverStatsRepo;
  readonly #writer: BatchedWriter;
  readonly #fetch: typeof fetch;
  #signature = "";
  #settingsSeen: RuntimeSettings | null = null;
  #savers: readonly Saver[] = [];
  readonly #reported = new Set<string>();
  /** Savings not yet written; folded per saver so a busy gateway writes one row per saver per flush. */
  #pending = new Map<string, { requests: number; before: number; after: number; errors: number }>();

  constructor(store: Store, writer: BatchedWriter, fetchImpl: typeof fetch) {
    this.#repo = new SaverStatsRepo(store.db);
    this.#writer = writer;
    this.#fetch = fetchImpl;
  }

  /**
   * Applies the savers unless the client bypassed them; never throws. The result is a promise only when
   * a saver answered with one (a promise costs a microtask turn on every request).
   */
  apply(
    request: NeutralRequest,
    settings: RuntimeSettings,
    headers: Headers,
    ctx: SaverContext = {},
  ): NeutralRequest | Promise<NeutralRequest> {
    if (headers.get(SAVERS_BYPASS_HEADER)?.trim().toLowerCase() === "off") return request;
    const savers = this.#saversFor(settings);
    if (savers.length === 0) return request;
    return runSavers(
      request,
      savers,
      ctx,
      (event) => this.#count(event.saver, event.bytesBefore, event.bytesAfter, event.failed),
      (saver, error) => {
        // Logged once per saver and message: a broken saver on every request must not flood the log.
        const message = error instanceof Error ? error.message : String(error);
        const key = `${saver}:${message}`;
        if (this.#reported.has(key)) return;
        this.#reported.add(key);
        console.error(`gateway: saver ${saver} failed (request continues unchanged): ${message}`);
      },
    );
  }

  #count(saver: string, before: number, after: number, failed: boolean): void {
    if (this.#pending.size === 0) {
      this.#writer.enqueue(() => {
        const pending = this.#pending;
        this.#pending = new Map();
        for (const [name, d] of pending) this.#repo.add(name, d.requests, d.before, d.after, d.errors);
      });
    }
    const entry = this.#pending.get(saver) ?? { requests: 0, before: 0, after: 0, errors: 0 };
    entry.requests++;
    entry.before += before;
    entry.after += after;
    entry.errors += failed ? 1 : 0;
    this.#pending.set(saver, entry);
  }

  #saversFor(settings: RuntimeSettings): readonly Saver[] {
    // Settings objects are replaced on every reload, so an unchanged object needs no comparison.
    if (settings === this.#settingsSeen) return this.#savers;
    this.#settingsSeen = settings;
    const config = {
      rtk: settings.saver_rtk_enabled,
      caveman: { enabled: settings.saver_caveman_enabled, level: settings.saver_caveman_level },
      ponytail: { enabled: settings.saver_ponytail_enabled, level: settings.saver_ponytail_level },
      headroom: { enabled: settings.saver_headroom_enabled, url: settings.saver_headroom_url },
    };
    const signature = JSON.stringify(config);
    if (signature !== this.#signature) {
      this.#savers = buildSavers(config, { fetch: this.#fetch });
      this.#signature = signature;
    }
    return this.#savers;
  }
}
