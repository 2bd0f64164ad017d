import { CATALOG, detectProvider, inventoryIdForPrefix, UNIDENTIFIED } from "../../inventory/catalog.ts";
import { type ImportedKey, parseImport } from "../../inventory/import_shapes.ts";
import { cleanKey, maskKey } from "../../inventory/key_text.ts";
import { hashApiKey } from "../../security/api_key.ts";
import type { UpstreamKeyView } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";
import type { InventoryChecks } from "./checks.ts";
import { exportDocument } from "./export.ts";
import { syncProviderMirrors } from "./mirror.ts";
import { type IngestReport, type IngestResult, summarize } from "./report.ts";
import { SubmitLimiter } from "./submit_limiter.ts";

/** A key as submitted (Add Keys, push, import): the key text plus what the submitter knows about it. */
export type SubmittedKey = ImportedKey;

export type { IngestReport, IngestResult, IngestStatus } from "./report.ts";

/** Most keys one push or Add Keys submission may carry. */
export const MAX_BATCH = 200;

/**
 * Most keys one Import JSON file may carry: enough for a large export to round-trip. The checks they start
 * queue behind `check_concurrency`, so a big import costs time, not a burst of upstream calls.
 */
export const MAX_IMPORT = 5000;

/** Keys an import files per transaction (some 30 ms of work here) before other requests get a turn. */
const IMPORT_CHUNK = 250;

/** How a submission is admitted: which keys it must name, how many it may carry, and the per-client budget. */
export interface IngestOptions {
  /** Push: reject keys whose provider cannot be told from their shape instead of filing them unidentified. */
  readonly requireProvider?: boolean;
  /** Most keys this kind of submission may carry (default MAX_BATCH). */
  readonly max?: number;
  /** Counts the keys against the submitter's budget; throws to refuse (nothing is stored then). */
  readonly admit?: (keys: number) => void;
}

/** A check request one process forwards to the one that runs the checks. */
export interface CheckRequest {
  readonly ids?: readonly string[];
  readonly identify?: boolean;
}

/**
 * The upstream key inventory: keys come in (Add Keys, push, import; deduplicated by hash), are checked in
 * the background, and go out (archive, delete, confirmed export). Every change that can alter routing
 * reloads the gateway, so a key enters or leaves routing at once.
 */
export class InventoryService {
  readonly #deps: ManagementDeps;
  readonly checks: InventoryChecks;
  /** The one per-client key budget that push, Add Keys and import all count against. */
  readonly submissions: SubmitLimiter;
  #checksHere = false;

  constructor(deps: ManagementDeps, checks: InventoryChecks) {
    this.#deps = deps;
    this.checks = checks;
    const { pushRateLimit, pushRateWindowMs } = deps.config.inventory;
    this.submissions = new SubmitLimiter(pushRateLimit, pushRateWindowMs);
  }

  /**
   * Elects whether this process runs the key checks. Exactly one process on a database does (the only one, or
   * worker 1), so a key is never checked twice at once; the others forward their check requests to it
   * through `publish`. The CLI never calls this: it must not call upstreams.
   */
  elect(processLabel: string | undefined, publish: (request: CheckRequest) => void): void {
    this.#checksHere = processLabel === undefined || processLabel === "worker-1";
    if (this.#checksHere) this.start();
    else this.checks.forwardTo((ids, identify) => publish({ ids, identify }));
  }

  /** Check requests forwarded by other processes: run when this process was elected, else not ours. */
  heard(requests: readonly CheckRequest[]): void {
    if (!this.#checksHere) return;
    for (const r of requests) {
      if (r.identify && r.ids) this.checks.identify(r.ids);
      else this.checks.schedule(r.ids);
    }
  }

  /** Starts background checks and mirrors the providers' own keys (the running gateway only). */
  start(): void {
    this.syncMirrors();
    this.checks.start();
  }

  /**
   * Mirrors every provider's own key into the inventory, so it is checked like any other (unless
   * `inventory.check_provider_keys` is off: the rows' keys are then left to the traffic they serve).
   */
  syncMirrors(): void {
    if (!this.#deps.config.inventory.checkProviderKeys) return;
    const ids = syncProviderMirrors(this.#deps.store, this.#deps.now());
    if (ids.length > 0) this.checks.schedule(ids);
  }

  /**
   * Registers keys: the count is checked, then admitted against the submitter's budget, then every key is
   * filed. Keys that were registered or re-filed are checked next.
   */
  ingest(items: readonly SubmittedKey[], options: IngestOptions = {}): IngestReport {
    this.#admit(items.length, options);
    return this.#report(this.#file(items, options.requireProvider ?? false));
  }

  #admit(count: number, options: IngestOptions): void {
    const max = options.max ?? MAX_BATCH;
    if (count === 0) throw invalidField("keys", "needs at least one key");
    if (count > max) throw invalidField("keys", `at most ${max} keys per submission`, 413);
    options.admit?.(count);
  }

  /** Files keys in one transaction. */
  #file(items: readonly SubmittedKey[], requireProvider: boolean): IngestResult[] {
    const now = this.#deps.now();
    const known = this.#knownProviders();
    return this.#deps.store.transaction(() =>
      items.map((item) => this.#ingestOne(item, known, requireProvider, now))
    );
  }

  /** Queues checks of the keys that were registered or re-filed; the report with its counts. */
  #report(results: IngestResult[]): IngestReport {
    const toCheck = results.filter((r) => r.status === "registered" || r.status === "updated")
      .map((r) => r.id!);
    if (toCheck.length > 0) this.checks.schedule(toCheck);
    return { summary: summarize(results), results };
  }

  /**
   * Add Keys: one key per line, with an optional provider, base URL and label for all of them. `identify`
   * (the user asked for it) tries keys whose provider cannot be told against the configured providers.
   */
  addText(
    text: string,
    options: { provider?: string; baseUrl?: string; label?: string; identify?: boolean },
    admit?: (keys: number) => void,
  ): IngestReport {
    const { identify, ...common } = options;
    const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
    const report = this.ingest(lines.map((key) => ({ key, ...common })), { admit });
    if (identify) this.identify(report.results.filter((r) => r.status === "unidentified").map((r) => r.id!));
    return report;
  }

  /** Tries unidentified keys against the configured providers (each is sent to them), in the background. */
  identify(ids: readonly string[]): { queued: number } {
    for (const id of ids) if (this.#deps.store.inventory.key(id) === null) throw this.#missing(id);
    this.checks.identify(ids);
    return { queued: ids.length };
  }

  /**
   * Import JSON: the origin's export and common peer shapes, up to MAX_IMPORT keys. The budget counts the
   * keys the file holds (not the one document they came in). Filed IMPORT_CHUNK keys per transaction with
   * a turn of the event loop between: 5,000 keys in one transaction held every request up for about 0.5 s.
   */
  async importJson(doc: unknown, admit?: (keys: number) => void): Promise<IngestReport> {
    const parsed = parseImport(doc);
    if ("error" in parsed) throw invalidField("file", parsed.error);
    this.#admit(parsed.keys.length, { max: MAX_IMPORT, admit });
    const results: IngestResult[] = [];
    for (let i = 0; i < parsed.keys.length; i += IMPORT_CHUNK) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      results.push(...this.#file(parsed.keys.slice(i, i + IMPORT_CHUNK), false));
    }
    return this.#report(results);
  }

  /** Archives or restores a key; either takes effect in routing at once. */
  archive(id: string, archived: boolean): UpstreamKeyView {
    if (!this.#deps.store.inventory.setArchived(id, archived, this.#deps.now())) throw this.#missing(id);
    this.#deps.reload();
    if (!archived) this.checks.schedule([id]);
    return this.#deps.store.inventory.key(id)!;
  }

  /** Deletes a key, its models and history. */
  delete(id: string): void {
    if (!this.#deps.store.inventory.delete(id)) throw this.#missing(id);
    this.#deps.reload();
  }

  /** Queues checks: of one key, or of every checkable key. */
  recheck(id?: string): { queued: number } {
    if (id !== undefined) {
      if (this.#deps.store.inventory.key(id) === null) throw this.#missing(id);
      this.checks.schedule([id]);
      return { queued: 1 };
    }
    const before = this.checks.pending;
    this.checks.schedule();
    return { queued: this.checks.pending - before };
  }

  /** The export document with every key's plaintext value (callers confirm first). */
  exportJson(providerId?: string): Record<string, unknown> {
    return exportDocument(this.#deps.store.inventory.exportRows(providerId), this.#deps.now());
  }

  #missing(id: string) {
    return notFound(`Inventory key "${id}" does not exist`);
  }

  /** Provider ids a key may be filed under: the catalog's and those of configured prefixes. */
  #knownProviders(): Set<string> {
    const ids = new Set(CATALOG.keys());
    for (const p of this.#deps.store.providers.list()) ids.add(inventoryIdForPrefix(p.prefix));
    return ids;
  }

  #ingestOne(item: SubmittedKey, known: Set<string>, requireProvider: boolean, now: number): IngestResult {
    const { store } = this.#deps;
    const label = item.label ?? "";
    const cleaned = cleanKey(item.key, Math.floor(now / 1000));
    if ("error" in cleaned) {
      return { key_masked: maskKey(item.key.trim()), label, status: "rejected", error: cleaned.error };
    }
    const masked = maskKey(cleaned.value);
    const reject = (error: string): IngestResult => ({
      key_masked: masked,
      label,
      status: "rejected",
      error,
    });
    const baseUrl = item.baseUrl?.replace(/\/+$/, "") ?? "";
    if (baseUrl !== "" && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
      return reject("base_url must be an http(s) URL");
    }
    let provider = item.provider?.trim().toLowerCase();
    if (provider !== undefined && provider !== "") {
      if (!known.has(provider)) return reject(`unknown provider "${provider}"`);
      if (provider === "custom" && baseUrl === "") return reject("provider custom needs a base_url");
    } else {
      provider = detectProvider(cleaned.value) ?? (baseUrl !== "" ? "custom" : UNIDENTIFIED);
      if (provider === UNIDENTIFIED && requireProvider) {
        return reject("Cannot detect provider. Pass provider field.");
      }
    }
    const display = CATALOG.get(provider)?.name ?? provider;
    const hash = hashApiKey(cleaned.value);
    const existing = store.inventory.byHash(hash);
    if (existing !== null) {
      if (existing.status === UNIDENTIFIED && provider !== UNIDENTIFIED) {
        store.inventory.ensureProvider(provider, now, display);
        store.inventory.reassign(existing.id, provider, baseUrl, now);
        return {
          id: existing.id,
          key_masked: masked,
          label: existing.label,
          provider_id: provider,
          provider_display_name: display,
          status: "updated",
        };
      }
      return {
        id: existing.id,
        key_masked: masked,
        label: existing.label,
        provider_id: existing.providerId,
        provider_display_name: CATALOG.get(existing.providerId)?.name ?? existing.providerId,
        status: "exists",
      };
    }
    const unidentified = provider === UNIDENTIFIED;
    const id = `uk_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
    store.inventory.ensureProvider(provider, now, display);
    store.inventory.insert({
      id,
      providerId: provider,
      label,
      value: cleaned.value,
      hash,
      masked,
      baseUrl,
      sourceNode: item.sourceNode ?? "",
      priority: Math.trunc(item.priority ?? 0),
      status: unidentified ? UNIDENTIFIED : "pending_validation",
      lastError: unidentified ? "Provider not auto-detected: needs manual review" : "",
      metadata: JSON.stringify(item.metadata ?? {}),
      note: importNote(item),
    }, now);
    if (item.state && !unidentified) store.inventory.copyCredits(id, item.state);
    return {
      id,
      key_masked: masked,
      label,
      provider_id: provider,
      provider_display_name: display,
      status: unidentified ? "unidentified" : "registered",
    };
  }
}

/** The first history row's note: an import says what the file claimed, since that state is not taken over. */
function importNote(item: SubmittedKey): string {
  if (!item.state) return "added";
  const claimed = item.state.status;
  return claimed === undefined
    ? "imported"
    : `imported (the file said "${claimed.slice(0, 40)}"; checked here before routing)`;
}
