import type { ApiType } from "../../config/mod.ts";
import { CATALOG, inventoryIdForPrefix } from "../../inventory/catalog.ts";
import { type CheckOutcome, errorOutcome, healthOf } from "../../inventory/check_outcome.ts";
import { type CheckFetch, guardedFetch } from "../../inventory/guarded_fetch.ts";
import { checkKey, type CheckTarget, type CredentialRefresh } from "../../inventory/key_checker.ts";
import { looksLikeBlob, maskKey } from "../../inventory/key_text.ts";
import { hashApiKey } from "../../security/api_key.ts";
import type { CheckRecord, KeyToCheck } from "../../storage/mod.ts";
import { log } from "../../log.ts";
import type { ManagementDeps } from "../deps.ts";
import { identifyKey } from "./identify.ts";
import { isProviderBaseUrl } from "./provider_urls.ts";
import { RecheckPlan } from "./recheck.ts";

/** Reloads are batched: a burst of finished checks rebuilds routing once, not once per key. */
const RELOAD_DEBOUNCE_MS = 250;

/**
 * Runs key checks in the background: a queue (each key at most once), at most `check_concurrency` at a
 * time, each upstream call bounded by `check_timeout_s`. Results are stored with a history row, and
 * routing is rebuilt shortly after (debounced), so a key that turns valid routes without a restart.
 * Nothing runs until start(): the CLI builds the same services and must not call upstreams.
 */
export class InventoryChecks {
  readonly #deps: ManagementDeps;
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  #running = 0;
  #started = false;
  #closed = false;
  #reloadTimer: ReturnType<typeof setTimeout> | undefined;
  #scheduleTimer: ReturnType<typeof setInterval> | undefined;
  #dirty = false;
  #idle: (() => void)[] = [];
  readonly #abort = new AbortController();
  readonly #fetch: CheckFetch;
  /** The credential core's refresh (the composition root sets it; absent in CLI-built services). */
  #refresh: CredentialRefresh | undefined;
  /** Set in a process that does not check (one worker of several): requests go to the one that does. */
  #forward: ((ids?: readonly string[], identify?: boolean) => void) | undefined;
  /** Keys to identify (tried against the configured providers) before their check, at the user's request. */
  readonly #identify = new Set<string>();
  /** Checks ahead of the interval: error retries, daily limits that reset. */
  readonly #recheck: RecheckPlan;

  constructor(deps: ManagementDeps, fetchImpl?: typeof fetch) {
    this.#deps = deps;
    this.#recheck = new RecheckPlan(deps, (ids) => this.schedule(ids));
    const signal = this.#abort.signal;
    const base = fetchImpl ?? fetch;
    this.#fetch = guardedFetch({
      allowPrivate: deps.config.inventory.allowPrivateTargets,
      timeoutMs: deps.config.inventory.checkTimeoutMs,
      // Shutdown ends checks in flight instead of waiting for their timeouts.
      fetch: (input, init) =>
        base(input, { ...init, signal: AbortSignal.any([init?.signal ?? signal, signal]) }),
    });
  }

  /** Lets the credential core refresh OAuth blobs during checks (rotated blobs are written back). */
  setCredentialRefresh(refresh: CredentialRefresh): void {
    this.#refresh = refresh;
  }

  /**
   * Makes this process hand check requests to the process that checks (several workers share one
   * database: one checker keeps the concurrency bound and checks every key once).
   */
  forwardTo(forward: (ids?: readonly string[], identify?: boolean) => void): void {
    this.#forward = forward;
  }

  /**
   * Begins checking: keys never checked, those whose last check failed and those out of daily credit now
   * (either may have recovered while the gateway was down), and every key on the configured interval.
   */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    const now = new Set(["pending_validation", "error", "daily_exhausted"]);
    const pending = this.#deps.store.inventoryChecks.due().filter((k) => now.has(k.status));
    this.schedule(pending.map((k) => k.id));
    const interval = this.#deps.config.inventory.checkIntervalMs;
    if (interval > 0) {
      this.#scheduleTimer = setInterval(() => {
        try {
          this.schedule();
        } catch (error) {
          // A throw from a timer would end the process; an unreachable database just skips this round.
          log("warn", `scheduling key checks failed: ${(error as Error).message}`);
        }
      }, interval);
      Deno.unrefTimer(this.#scheduleTimer);
    }
  }

  /** Queues checks of these keys (every checkable key when absent). */
  schedule(ids?: readonly string[]): void {
    if (this.#closed) return;
    if (this.#forward !== undefined) return this.#forward(ids);
    const due = ids === undefined ? this.#deps.store.inventoryChecks.due().map((k) => k.id) : ids;
    for (const id of due) {
      if (this.#queued.has(id)) continue;
      this.#queued.add(id);
      this.#queue.push(id);
    }
    this.#pump();
  }

  /** Queues unidentified keys to be tried against the configured providers, then checked where one accepts them. */
  identify(ids: readonly string[]): void {
    if (this.#closed || ids.length === 0) return;
    if (this.#forward !== undefined) return this.#forward(ids, true);
    for (const id of ids) this.#identify.add(id);
    this.schedule(ids);
  }

  /** Resolves once the queue is empty and routing reflects every result (tests, the dashboard). */
  idle(): Promise<void> {
    if (this.#queue.length === 0 && this.#running === 0 && !this.#dirty) return Promise.resolve();
    if (!this.#started) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** When a key is checked again ahead of the interval (error retry, daily reset); ms, in this process. */
  plannedAt(id: string): number | undefined {
    return this.#recheck.plannedAt(id);
  }

  /** Keys waiting or being checked. */
  get pending(): number {
    return this.#queue.length + this.#running;
  }

  /** Stops: no new checks, checks in flight are aborted, and waits until they have stored their result. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.length = 0;
    this.#queued.clear();
    clearInterval(this.#scheduleTimer);
    this.#recheck.close();
    this.#abort.abort(new DOMException("the gateway is shutting down", "AbortError"));
    if (this.#running > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
    clearTimeout(this.#reloadTimer);
  }

  #pump(): void {
    if (!this.#started) return;
    const limit = this.#deps.config.inventory.checkConcurrency;
    while (this.#running < limit && this.#queue.length > 0) {
      const id = this.#queue.shift()!;
      this.#running++;
      // A database that cannot be reached (reading the key, storing the result) must not end the process
      // through an unhandled rejection: the check is skipped and the next schedule tries again.
      this.#run(id).catch((error) => {
        if (!this.#closed) log("warn", `key check of ${id} failed: ${(error as Error).message}`);
      }).finally(() => {
        this.#queued.delete(id);
        this.#running--;
        this.#pump();
        if (this.#running === 0 && this.#queue.length === 0) this.#drained();
      });
    }
  }

  async #run(id: string): Promise<void> {
    if (this.#identify.delete(id)) {
      const found = await identifyKey(this.#deps, this.#fetch, id).catch(() => null);
      if (found === null) return;
    }
    const key = this.#deps.store.inventoryChecks.due([id])[0];
    if (key === undefined) {
      // Deleted, archived or revoked meanwhile: forget its error streak too.
      this.#recheck.forget(id);
      return;
    }
    let outcome: CheckOutcome;
    try {
      outcome = await checkKey(this.#target(key), {
        fetch: this.#fetch,
        usabilityProbe: this.#deps.config.inventory.usabilityProbe,
        refresh: this.#refresh,
        now: this.#deps.now,
      });
    } catch (error) {
      outcome = errorOutcome(`check failed: ${(error as Error).message}`);
    }
    if (this.#closed && outcome.status === "error") return;
    try {
      this.#deps.store.inventoryChecks.record(id, toRecord(outcome, key.value), this.#deps.now());
    } catch (error) {
      // A key deleted mid-check, or a closed database at shutdown: nothing to store.
      if (!this.#closed) log("warn", `storing a key check failed: ${(error as Error).message}`);
      return;
    }
    this.#dirty = true;
    this.#reloadTimer ??= setTimeout(() => this.#reloadNow(), RELOAD_DEBOUNCE_MS);
    this.#recheck.followUp(id, outcome);
  }

  #target(key: KeyToCheck): CheckTarget {
    const catalog = CATALOG.get(key.providerId);
    const rows = this.#deps.store.providers.list();
    const row = rows.find((p) => p.enabled && inventoryIdForPrefix(p.prefix) === key.providerId);
    const apiType: ApiType = row?.apiType ?? catalog?.apiType ?? "chat_compat";
    const baseUrl = key.baseUrl || row?.baseUrl || catalog?.baseUrl || "";
    return {
      keyId: key.id,
      value: key.value,
      blob: looksLikeBlob(key.value),
      providerId: key.providerId,
      apiType,
      baseUrl,
      trustedBaseUrl: isProviderBaseUrl(rows, baseUrl),
      probeModel: catalog?.probeModel,
      credit: catalog?.credit,
      oauth: row?.oauth,
      ...(row?.azure ? { azure: row.azure } : {}),
    };
  }

  #reloadNow(): void {
    clearTimeout(this.#reloadTimer);
    this.#reloadTimer = undefined;
    if (!this.#dirty || this.#closed) return;
    this.#dirty = false;
    try {
      this.#deps.reload();
    } catch (error) {
      // Called from timers and promise callbacks: a throw here would be unhandled. The next change retries.
      log("warn", `reloading after key checks failed: ${(error as Error).message}`);
    }
  }

  #drained(): void {
    this.#reloadNow();
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}

function toRecord(outcome: CheckOutcome, value: string): CheckRecord {
  const rotated = outcome.rotatedValue;
  return {
    status: outcome.status,
    valid: outcome.valid,
    usable: outcome.usable,
    usability: outcome.usability,
    note: outcome.note,
    error: outcome.error,
    health: healthOf(outcome.credits, outcome.rateLimits),
    models: outcome.models,
    rpm: outcome.rateLimits.rpm,
    tpm: outcome.rateLimits.tpm,
    rpd: outcome.rateLimits.rpd,
    credits: outcome.credits,
    ...(rotated !== undefined && rotated !== value
      ? { rotated: { value: rotated, hash: hashApiKey(rotated), masked: maskKey(rotated) } }
      : {}),
  };
}
