import {
  type BoundStatement,
  type BridgeAnswer,
  type BridgeRequest,
  CELL,
  HEADER_BYTES,
  INITIAL_BYTES,
  MAX_BYTES,
  type WorkerNotice,
} from "./bridge_protocol.ts";
import { log } from "../../log.ts";
import { toPostgres } from "./pg_dialect.ts";
import type { RunResult, SqlDatabase, SqlStatement, SqlValue } from "../sql.ts";

/** A deferred write has not run yet, so it has no result: reading one is a bug, not a zero. */
const DEFERRED_RESULT: RunResult = {
  get changes(): never {
    throw new Error("a deferred write has no result yet");
  },
  get lastInsertRowid(): never {
    throw new Error("a deferred write has no result yet");
  },
};

/**
 * How long a synchronous call waits for PostgreSQL by default. The main thread is blocked meanwhile, so
 * this bounds how long an unreachable database can stall the event loop; a call that times out makes the
 * next ones fail at once until PostgreSQL answers it.
 */
export const CALL_TIMEOUT_MS = 10_000;
/** The code of the PostgresError a timed-out (or refused, while one is stuck) call throws. */
export const TIMEOUT_CODE = "GATEWAY_PG_TIMEOUT";
/** The code of the PostgresError a call throws at once while the server is known to be unreachable. */
export const DOWN_CODE = "GATEWAY_PG_DOWN";

/** An error PostgreSQL reported, with its SQLSTATE code. */
export class PostgresError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = "PostgresError";
    this.code = code;
  }
}

/**
 * A PostgreSQL database behind the same synchronous interface the repositories use with node:sqlite.
 * Each call waits for the bridge worker (a loopback round trip); the request path does not make calls:
 * it reads configuration from memory and writes through `deferWrites`, which sends a whole batch to the
 * worker and returns at once (the worker commits it while requests go on).
 */
export class PgDatabase implements SqlDatabase {
  readonly #worker: Worker;
  readonly #shared: SharedArrayBuffer;
  readonly #cells: Int32Array;
  readonly #translated = new Map<string, string>();
  readonly #timeoutMs: number;
  #open = true;
  /** The last call's sequence number (see bridge_protocol.ts). */
  #seq = 0;
  /** A call that timed out and that the worker has not finished yet (0: none). */
  #stuck = 0;
  /** While set, `run` collects statements instead of running them (see deferWrites). */
  #deferred: BoundStatement[] | null = null;

  private constructor(worker: Worker, shared: SharedArrayBuffer, timeoutMs: number) {
    this.#worker = worker;
    this.#shared = shared;
    this.#cells = new Int32Array(shared, 0, HEADER_BYTES / 4);
    this.#timeoutMs = timeoutMs;
    // The worker's log lines (write retries, drops) go through this thread's log, in its format.
    worker.onmessage = (event: MessageEvent<WorkerNotice>) => {
      if (event.data?.log) log(event.data.log.level, event.data.log.message);
    };
  }

  /**
   * Connects (throws a PostgresError naming the reason when the server cannot be reached). `timeoutMs`
   * bounds every synchronous call; `connectTimeoutMs` the first one (it also starts the worker).
   */
  static connect(url: string, timeoutMs = CALL_TIMEOUT_MS, connectTimeoutMs = timeoutMs): PgDatabase {
    const shared = new SharedArrayBuffer(INITIAL_BYTES, { maxByteLength: MAX_BYTES });
    const worker = new Worker(new URL("./bridge_worker.ts", import.meta.url).href, { type: "module" });
    worker.postMessage({ shared });
    const db = new PgDatabase(worker, shared, timeoutMs);
    try {
      db.#call({ op: "connect", url }, connectTimeoutMs);
    } catch (error) {
      worker.terminate();
      db.#open = false;
      throw error;
    }
    return db;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** A counter the worker bumps on every NOTIFY from the gateway's triggers: compare to see news. */
  get news(): number {
    return Atomics.load(this.#cells, CELL.news);
  }

  prepare(sql: string): SqlStatement {
    let text = this.#translated.get(sql);
    if (text === undefined) {
      text = toPostgres(sql);
      this.#translated.set(sql, text);
    }
    const pgSql = text;
    return {
      run: (...params: SqlValue[]): RunResult => {
        if (this.#deferred !== null) {
          this.#deferred.push({ sql: pgSql, params });
          return DEFERRED_RESULT;
        }
        const answer = this.#call({ op: "query", sql: pgSql, params });
        return { changes: answer.changes, lastInsertRowid: 0 };
      },
      get: (...params: SqlValue[]) => this.#read(pgSql, params)[0],
      all: (...params: SqlValue[]) => this.#read(pgSql, params),
      iterate: (...params: SqlValue[]) => this.#read(pgSql, params),
    };
  }

  exec(sql: string): void {
    if (this.#deferred !== null) throw new Error("exec inside deferred writes");
    this.#call({ op: "exec", sql: toPostgres(sql) });
  }

  /**
   * Runs `work`, collecting the statements it runs, and sends them to the worker as one transaction
   * without waiting. Reads inside `work` are refused: a deferred write cannot depend on a result.
   */
  deferWrites(work: () => void): void {
    this.#deferred = [];
    let statements: BoundStatement[];
    try {
      work();
    } finally {
      statements = this.#deferred;
      this.#deferred = null;
    }
    if (statements.length === 0) return;
    // Counted here, before the worker sees it, so a drain right after cannot miss it.
    Atomics.add(this.#cells, CELL.pendingBatches, 1);
    this.#worker.postMessage({ op: "batch", statements } satisfies BridgeRequest);
  }

  /** Waits until every deferred batch is committed (before reads that must see them, and on close). */
  drain(): void {
    if (Atomics.load(this.#cells, CELL.pendingBatches) > 0) this.#call({ op: "drain" });
  }

  /** Batches handed to the worker and not yet committed (they wait there while PostgreSQL is down). */
  get pendingBatches(): number {
    return Atomics.load(this.#cells, CELL.pendingBatches);
  }

  close(): void {
    if (!this.#open) return;
    try {
      this.#call({ op: "close" });
    } catch (error) {
      const pending = this.pendingBatches;
      if (pending > 0) {
        log(
          "error",
          `closing PostgreSQL: ${pending} batches of writes were not written: ${(error as Error).message}`,
        );
      }
      throw error;
    } finally {
      this.#open = false;
      this.#worker.terminate();
    }
  }

  #read(sql: string, params: unknown[]): Record<string, unknown>[] {
    if (this.#deferred !== null) throw new Error("a read inside deferred writes");
    return this.#call({ op: "query", sql, params }).rows;
  }

  #call(
    request: BridgeRequest,
    timeoutMs = this.#timeoutMs,
  ): { rows: Record<string, unknown>[]; changes: number } {
    if (!this.#open) throw new Error("the database is closed");
    if (this.#stuck !== 0) {
      if (Atomics.load(this.#cells, CELL.finished) < this.#stuck) {
        throw new PostgresError(
          "PostgreSQL has not answered an earlier call that timed out; not waiting again until it does",
          TIMEOUT_CODE,
        );
      }
      this.#stuck = 0;
    }
    if (request.op !== "close" && Atomics.load(this.#cells, CELL.down) === 1) {
      throw new PostgresError(
        "PostgreSQL is unreachable (a connection failed; the bridge tries again every second)",
        DOWN_CODE,
      );
    }
    const seq = ++this.#seq;
    Atomics.store(this.#cells, CELL.waiting, seq);
    this.#worker.postMessage({ ...request, seq });
    const deadline = performance.now() + timeoutMs;
    // Bounded by the deadline; an answer to an earlier, abandoned call can wake it early, hence the loop.
    for (;;) {
      const answered = Atomics.load(this.#cells, CELL.answered);
      if (answered === seq) break;
      const left = deadline - performance.now();
      if (left <= 0) {
        this.#stuck = seq;
        Atomics.store(this.#cells, CELL.waiting, 0);
        throw new PostgresError(
          `PostgreSQL did not answer within ${timeoutMs} ms (${request.op}); is the server reachable?`,
          TIMEOUT_CODE,
        );
      }
      Atomics.wait(this.#cells, CELL.answered, answered, left);
    }
    const length = Atomics.load(this.#cells, CELL.length);
    const text = new TextDecoder().decode(new Uint8Array(this.#shared, HEADER_BYTES, length).slice());
    const answer = JSON.parse(text) as BridgeAnswer;
    if ("error" in answer) throw new PostgresError(answer.error, answer.code);
    return answer;
  }
}
