/**
 * The shared-memory protocol between the main thread and the PostgreSQL bridge worker. The repositories
 * are synchronous (they were written for node:sqlite), so a call posts a request to the worker and waits
 * on an Int32 cell; the worker runs the query on its own event loop and writes the JSON answer into the
 * shared buffer (grown when an answer does not fit). Batched writes and notifications do not wait.
 *
 * Every synchronous call carries a sequence number, and the wait is bounded: when the main thread gives
 * up on a call (PostgreSQL does not answer), the worker later finds that call is no longer the one
 * waited for and drops its answer instead of writing it over the next call's.
 */

/** Int32 cells at the start of the shared buffer. */
export const CELL = {
  /** The sequence number of the call whose answer is in the buffer; the worker notifies on it. */
  answered: 0,
  /** Byte length of the answer. */
  length: 1,
  /** Bumped by the worker for every NOTIFY on the gateway's channel (and on every re-LISTEN). */
  news: 2,
  /** Batches sent but not yet committed (or dropped): the main thread adds, the worker subtracts. */
  pendingBatches: 3,
  /** The sequence number of the call the main thread waits for now (set before posting it). */
  waiting: 4,
  /** The sequence number of the last call the worker finished, answered or dropped. */
  finished: 5,
  /**
   * 1 while the worker's last synchronous query failed for a network reason and a probe (every second)
   * has not reached the server again: calls then fail at once instead of blocking on a dead server.
   */
  down: 6,
} as const;
/** Bytes before the answer area. */
export const HEADER_BYTES = 32;
export const INITIAL_BYTES = 1 << 20;
/** Largest answer a synchronous call can carry (a dashboard export of a very large table). */
export const MAX_BYTES = 1 << 30;

/** The NOTIFY channel the gateway's tables signal on (cluster events and configuration changes). */
export const NOTIFY_CHANNEL = "gateway_changes";

/** One statement and its parameters. */
export interface BoundStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Writes waiting for PostgreSQL while it cannot be reached are kept up to about this much memory, counted
 * by `batchSize` (a usage row is about 450 bytes of it, a request log its bodies); batches beyond it are
 * dropped, counted and logged. Counted in bytes, not statements: one statement may carry one row or many.
 */
export const MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

/** About how many bytes a batch holds while it waits: its text parameters' length, 8 per other value. */
export function batchSize(statements: readonly BoundStatement[]): number {
  let size = 0;
  for (const s of statements) {
    size += 64;
    for (const p of s.params) {
      size += typeof p === "string" ? p.length : p instanceof Uint8Array ? p.byteLength : 8;
    }
  }
  return size;
}

/** A synchronous call's sequence number travels with it. */
export type NumberedRequest = BridgeRequest & { readonly seq: number };

/** What the worker tells the main thread without being asked (log lines go through the main thread's log). */
export interface WorkerNotice {
  readonly log: { readonly level: "error" | "warn" | "info"; readonly message: string };
}

/** What the main thread asks. */
export type BridgeRequest =
  | { readonly op: "connect"; readonly url: string }
  | { readonly op: "query"; readonly sql: string; readonly params: readonly unknown[] }
  | { readonly op: "exec"; readonly sql: string }
  | { readonly op: "batch"; readonly statements: readonly BoundStatement[] }
  | { readonly op: "drain" }
  | { readonly op: "close" };

/** A synchronous call's answer. */
export type BridgeAnswer =
  | { readonly rows: Record<string, unknown>[]; readonly changes: number }
  | { readonly error: string; readonly code?: string };
