import type { RequestRowInput, Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";

/** Why a request was refused before it reached the dispatcher. */
export type AuthRefusal = "missing_key" | "unknown_key";

/** Rows written per reason and minute; the rest are only counted. */
export const AUTH_ROWS_PER_MINUTE = 10;

const MINUTE_MS = 60_000;

const REASON_TEXT: Readonly<Record<AuthRefusal, string>> = {
  missing_key: "missing key: no API key was sent",
  unknown_key: "unknown key: the key sent is unknown, revoked or expired",
};

/**
 * Puts 401s (refused before the request lifecycle: no body read, nothing routed) in the request log, told
 * apart as a missing or an unknown key. Anyone can send these, as fast as they like, so they must not be
 * a way to fill the database: per reason, the first AUTH_ROWS_PER_MINUTE of each minute get a row and the
 * rest are counted, the count going into the next row written ("… and 530 more in the minute before").
 * Memory and writes stay bounded whatever the rate.
 */
export class AuthFailureLog {
  readonly #writer: BatchedWriter;
  readonly #insert: (rows: RequestRowInput[]) => void;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #windows = new Map<AuthRefusal, { start: number; written: number; skipped: number }>();

  constructor(store: Pick<Store, "requests">, writer: BatchedWriter, now: () => number, newId: () => string) {
    this.#writer = writer;
    this.#insert = (rows) => store.requests.insert(rows);
    this.#now = now;
    this.#newId = newId;
  }

  /** A request on `surface` was refused for `reason`. */
  refused(reason: AuthRefusal, surface: string): void {
    const now = this.#now();
    let window = this.#windows.get(reason);
    let carried = 0;
    if (window === undefined || now - window.start >= MINUTE_MS) {
      carried = window?.skipped ?? 0;
      window = { start: now, written: 0, skipped: 0 };
      this.#windows.set(reason, window);
    }
    if (window.written >= AUTH_ROWS_PER_MINUTE) {
      window.skipped++;
      return;
    }
    window.written++;
    const more = carried > 0 ? ` (and ${carried} more in the minute before, counted but not logged)` : "";
    this.#writer.collect(this.#insert, {
      uid: this.#newId(),
      ts: now,
      clientFormat: surface,
      model: "",
      providerId: "",
      accountId: "",
      clientKeyId: null,
      clientKeyLabel: "(no key)",
      status: 401,
      streamed: false,
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
      ttftMs: -1,
      latencyMs: 0,
      chain: [],
      error: REASON_TEXT[reason] + more,
    });
  }
}
