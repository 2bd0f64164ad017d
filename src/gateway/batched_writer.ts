import type { Store } from "../storage/mod.ts";
import { log } from "../log.ts";

/** How often queued writes are committed at the latest. */
export const FLUSH_INTERVAL_MS = 500;
/** Queue length that triggers an early flush. */
export const FLUSH_BATCH_SIZE = 500;

/**
 * Keeps database writes off the request path: usage rows, cooldown changes and request logs are
 * queued and committed together in one transaction at least every FLUSH_INTERVAL_MS, and on close.
 * On SQLite a failed batch is reported and dropped rather than retried forever; on PostgreSQL the
 * bridge worker keeps a batch the server cannot take and retries it (src/storage/postgres/write_backlog.ts).
 */
export class BatchedWriter {
  readonly #store: Store;
  #queue: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #afterFlush: (() => void)[] = [];
  /** This batch's item lists, one per `collect` writer; replaced when a batch is taken. */
  #lists = new Map<(items: never[]) => void, unknown[]>();

  constructor(store: Store) {
    this.#store = store;
  }

  /** Queues one write; it runs inside the next batch's transaction. */
  enqueue(write: () => void): void {
    this.#queue.push(write);
    if (this.#queue.length >= FLUSH_BATCH_SIZE) this.#commit();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#commit(), FLUSH_INTERVAL_MS);
    }
  }

  /**
   * Adds `item` to this batch's list for `write`, which runs once in the batch with every item collected
   * (one queued write and one prepared statement per batch instead of one per row). `write` must be the
   * same function each time: it names the list. A failed batch drops its lists with it, and the next item
   * starts a new one.
   */
  collect<T>(write: (items: T[]) => void, item: T): void {
    const lists = this.#lists as Map<(items: T[]) => void, T[]>;
    const list = lists.get(write);
    if (list !== undefined) {
      list.push(item);
      return;
    }
    const items = [item];
    lists.set(write, items);
    this.enqueue(() => write(items));
  }

  /** Registers a callback run after every successful flush (live dashboards). */
  onFlush(listener: () => void): void {
    this.#afterFlush.push(listener);
  }

  /** Writes pending work now; when it returns, the rows are in the database (readers see them). */
  flush(): void {
    this.#commit();
    this.#store.settleWrites();
  }

  /**
   * Commits the queue in one transaction. On SQLite that happens here; on PostgreSQL the batch goes to
   * the bridge worker and commits while requests go on (the request path never waits on the network).
   */
  #commit(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#lists = new Map();
    try {
      this.#store.writeBatch(() => {
        for (const write of batch) write();
      });
    } catch (error) {
      log("error", `dropped ${batch.length} queued writes: ${(error as Error).message}`);
      return;
    }
    for (const listener of this.#afterFlush) listener();
  }

  /** Number of queued writes. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Commits what is queued and stops the timer (shutdown). On PostgreSQL the last batch is handed to the
   * bridge; closing the store waits for it (bounded), so an unreachable database cannot stop the rest of
   * the shutdown here.
   */
  close(): void {
    this.#commit();
  }
}
