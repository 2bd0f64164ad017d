import type { RuntimeSettings } from "../config/runtime_settings.ts";
import type { NeutralRequest } from "../model/mod.ts";
import { buildSavers, runSavers, type Saver, type SaverContext, type SaverStatEvent } from "../savers/mod.ts";
import { SaverStatsRepo } from "../storage/saver_stats_repo.ts";
import type { Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import { log } from "../log.ts";

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
  /** Writes one flush's saver runs, folded per saver: a busy gateway writes one row per saver per flush. */
  readonly #writeRuns = (runs: SaverStatEvent[]) => {
    const totals = new Map<string, { requests: number; before: number; after: number; errors: number }>();
    for (const run of runs) {
      let total = totals.get(run.saver);
      if (total === undefined) totals.set(run.saver, total = { requests: 0, before: 0, after: 0, errors: 0 });
      total.requests++;
      total.before += run.bytesBefore;
      total.after += run.bytesAfter;
      total.errors += run.failed ? 1 : 0;
    }
    for (const [name, t] of totals) this.#repo.add(name, t.requests, t.before, t.after, t.errors);
  };

  constructor(store: Store, writer: BatchedWriter, fetchImpl: typeof fetch) {
    this.#repo = new SaverStatsRepo(store.db);
    this.#writer = writer;
    this.#fetch = fetchImpl;
  }

  /**
   * Applies the savers unless the client bypassed them; never throws. The result is a promise only when
   * a saver answered with one (a promise costs a microtask turn on every request). `changed` hears each
   * saver that changed the request (the request span lists them).
   */
  apply(
    request: NeutralRequest,
    settings: RuntimeSettings,
    headers: Headers,
    ctx: SaverContext = {},
    changed?: (saver: string) => void,
  ): NeutralRequest | Promise<NeutralRequest> {
    if (headers.get(SAVERS_BYPASS_HEADER)?.trim().toLowerCase() === "off") return request;
    const savers = this.#saversFor(settings);
    if (savers.length === 0) return request;
    return runSavers(
      request,
      savers,
      ctx,
      (run) => {
        if (run.changed) changed?.(run.saver);
        this.#writer.collect(this.#writeRuns, run);
      },
      (saver, error) => {
        // Logged once per saver and message: a broken saver on every request must not flood the log.
        const message = error instanceof Error ? error.message : String(error);
        const key = `${saver}:${message}`;
        if (this.#reported.has(key)) return;
        this.#reported.add(key);
        log("warn", `saver ${saver} failed (request continues unchanged): ${message}`);
      },
    );
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
