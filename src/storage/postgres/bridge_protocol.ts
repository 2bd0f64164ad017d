/**
 * The shared-memory protocol between the main thread and the PostgreSQL bridge worker. The repositories
 * are synchronous (they were written for node:sqlite), so a call posts a request to the worker and waits
 * on an Int32 cell; the worker runs the query on its own event loop and writes the JSON answer into the
 * shared buffer (grown when an answer does not fit). Batched writes and notifications do not wait.
 */

/** Int32 cells at the start of the shared buffer. */
export const CELL = {
  /** 0 while a synchronous call runs; the worker sets 1 and notifies when the answer is written. */
  state: 0,
  /** Byte length of the answer. */
  length: 1,
  /** Bumped by the worker for every NOTIFY on the gateway's channel: "something changed, look". */
  news: 2,
  /** Batches sent but not yet committed (or failed): the main thread adds, the worker subtracts. */
  pendingBatches: 3,
} as const;
/** Bytes before the answer area. */
export const HEADER_BYTES = 16;
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
