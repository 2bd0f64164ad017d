import type { CheckOutcome } from "../../inventory/check_outcome.ts";
import type { ManagementDeps } from "../deps.ts";

/** Retries after consecutive `error` verdicts; past them the key waits for the check interval. */
export const ERROR_RETRIES = 6;

/** A daily limit is checked again this long after 00:00 UTC, so the upstream has surely reset it. */
const RESET_MARGIN_MS = 60_000;

/**
 * The wait before retrying a key whose check ended in `error` for the `failures`-th time in a row: the
 * base doubled each time (1, 2, 4 … 32 × base), or null past ERROR_RETRIES (or with a base of 0). An
 * `error` is a timeout, a refused target or an upstream 5xx: not a verdict on the key, so an active key
 * that hit one should not stay out of routing for a whole check interval.
 */
export function errorRetryDelay(failures: number, baseMs: number): number | null {
  if (baseMs <= 0 || failures < 1 || failures > ERROR_RETRIES) return null;
  return baseMs * 2 ** (failures - 1);
}

/**
 * The checks planned ahead of the interval: an error's retry (with its backoff streak per key) and a
 * daily limit's reset. One timer for all keys; when it fires, the keys that are due go to `due`.
 */
export class RecheckPlan {
  readonly #deps: Pick<ManagementDeps, "config" | "now">;
  readonly #due: (ids: readonly string[]) => void;
  /** Keys to check again at a set time (ms). */
  readonly #later = new Map<string, number>();
  #laterTimer: ReturnType<typeof setTimeout> | undefined;
  /** Consecutive `error` verdicts per key (the retry backoff); a conclusive check clears it. */
  readonly #failures = new Map<string, number>();
  #closed = false;

  constructor(deps: Pick<ManagementDeps, "config" | "now">, due: (ids: readonly string[]) => void) {
    this.#deps = deps;
    this.#due = due;
  }

  /** Plans the key's next check ahead of the interval: an error's retry, or a daily limit's reset. */
  followUp(id: string, outcome: CheckOutcome): void {
    if (outcome.status === "error") {
      const failures = (this.#failures.get(id) ?? 0) + 1;
      this.#failures.set(id, failures);
      const delay = errorRetryDelay(failures, this.#deps.config.inventory.errorRetryMs);
      if (delay !== null) this.#checkAt(id, this.#deps.now() + delay);
      return;
    }
    this.#failures.delete(id);
    if (outcome.recheckAt !== undefined) this.#checkAt(id, outcome.recheckAt + RESET_MARGIN_MS);
  }

  /** Forgets the key's error streak (deleted, archived or revoked meanwhile). */
  forget(id: string): void {
    this.#failures.delete(id);
  }

  /** When the key is checked again ahead of the interval; ms, in this process. */
  plannedAt(id: string): number | undefined {
    return this.#later.get(id);
  }

  /** Drops every planned check and plans no more. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#laterTimer);
    this.#later.clear();
  }

  #checkAt(id: string, at: number): void {
    if (this.#closed) return;
    this.#later.set(id, Math.min(at, this.#later.get(id) ?? Infinity));
    this.#armLater();
  }

  #armLater(): void {
    clearTimeout(this.#laterTimer);
    this.#laterTimer = undefined;
    if (this.#later.size === 0 || this.#closed) return;
    const next = Math.min(...this.#later.values());
    // setTimeout holds at most ~24.8 days; a later time is simply re-armed when this one fires.
    const wait = Math.min(Math.max(0, next - this.#deps.now()), 2 ** 31 - 1);
    this.#laterTimer = setTimeout(() => {
      const now = this.#deps.now();
      const due = [...this.#later].filter(([, at]) => at <= now).map(([id]) => id);
      for (const id of due) this.#later.delete(id);
      this.#armLater();
      if (due.length > 0) this.#due(due);
    }, wait);
    Deno.unrefTimer(this.#laterTimer);
  }
}
