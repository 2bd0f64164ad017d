import { batchSize, type BoundStatement } from "./bridge_protocol.ts";

/** First retry after this long; each failure doubles it, up to RETRY_MAX_MS. */
const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 5_000;
/** A batch PostgreSQL refuses for its content (not for being unreachable) is tried this often, then dropped. */
const REFUSED_ATTEMPTS = 3;

/** Network-level failures of the driver or the runtime: the server may well come back. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
/** SQLSTATE classes that say "try again": connection, rollback (serialization), resources, shutdown, system. */
const RETRY_CLASSES = new Set(["08", "40", "53", "57", "58"]);

/** What the backlog needs from its surroundings (the bridge worker; tests pass fakes). */
export interface BacklogDeps {
  /** Commits one batch in one transaction; rejects when it did not commit. */
  readonly commit: (statements: readonly BoundStatement[]) => Promise<void>;
  /** Called once per batch that is done: committed or dropped. */
  readonly settled: () => void;
  readonly log: (level: "error" | "warn" | "info", message: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  /** The most bytes kept waiting, counted by batchSize (see MAX_BACKLOG_BYTES). */
  readonly maxBytes: number;
}

/** Whether a failed commit is worth retrying: the server or the network failed, not the batch itself. */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown; name?: unknown };
  const code = typeof e?.code === "string" ? e.code : "";
  if (e?.severity !== undefined) return RETRY_CLASSES.has(code.slice(0, 2)) && code !== "08P01";
  if (NETWORK_CODES.has(code)) return true;
  return typeof e?.name === "string" &&
    /^(ConnectionRefused|ConnectionReset|ConnectionAborted|TimedOut)$/.test(e.name);
}

/**
 * Batched writes in order, kept in memory while PostgreSQL cannot take them: a batch that fails for a
 * transient reason is retried with backoff (100 ms doubling to 5 s) until it commits, and the ones behind
 * it wait their turn, so a short outage loses no usage row. Memory is bounded: beyond `maxBytes`
 * waiting, new batches are dropped, counted, and reported. A batch PostgreSQL refuses for its content
 * (a constraint, a type) would fail forever, so after three tries it is dropped with an error line.
 */
export class WriteBacklog {
  readonly #deps: BacklogDeps;
  readonly #queue: { readonly statements: readonly BoundStatement[]; readonly size: number }[] = [];
  #statements = 0;
  #bytes = 0;
  #running = false;
  #idle: (() => void)[] = [];
  /** The first error of the outage under way, or null while writes go through. */
  #outage: string | null = null;
  /** Statements dropped because the backlog was full, since the outage began. */
  #dropped = 0;

  constructor(deps: BacklogDeps) {
    this.#deps = deps;
  }

  /** Whether the batch at the head failed and waits to be retried (PostgreSQL unreachable). */
  get failing(): boolean {
    return this.#outage !== null;
  }

  /** Statements waiting (not yet committed). */
  get waiting(): number {
    return this.#statements;
  }

  /** Queues a batch after the ones before it. */
  add(statements: readonly BoundStatement[]): void {
    const size = batchSize(statements);
    if (this.#bytes + size > this.#deps.maxBytes) {
      if (this.#dropped === 0) {
        this.#deps.log(
          "error",
          `PostgreSQL write backlog is full (${this.#statements} writes waiting): dropping new writes until it drains`,
        );
      }
      this.#dropped += statements.length;
      this.#deps.settled();
      return;
    }
    this.#queue.push({ statements, size });
    this.#statements += statements.length;
    this.#bytes += size;
    if (!this.#running) void this.#pump();
  }

  /** Resolves when nothing is waiting. */
  idle(): Promise<void> {
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #pump(): Promise<void> {
    this.#running = true;
    let failures = 0;
    // Ends when the queue is empty; while PostgreSQL is down it waits between tries (at most 5 s apart).
    while (this.#queue.length > 0) {
      const batch = this.#queue[0].statements;
      try {
        await this.#deps.commit(batch);
      } catch (error) {
        failures++;
        const message = (error as Error)?.message ?? String(error);
        if (!isTransient(error) && failures >= REFUSED_ATTEMPTS) {
          this.#done();
          failures = 0;
          this.#deps.log(
            "error",
            `PostgreSQL refused a batch of ${batch.length} writes ${REFUSED_ATTEMPTS} times, dropped it: ${message}`,
          );
          continue;
        }
        if (this.#outage === null) {
          this.#outage = message;
          this.#deps.log(
            "warn",
            `PostgreSQL writes are failing, retrying (${this.#statements} writes waiting): ${message}`,
          );
        }
        await this.#deps.sleep(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(failures - 1, 16)));
        continue;
      }
      this.#done();
      failures = 0;
      if ((this.#outage !== null || this.#dropped > 0) && this.#queue.length === 0) {
        const dropped = this.#dropped > 0 ? `; ${this.#dropped} writes were dropped (backlog full)` : "";
        this.#deps.log("info", `PostgreSQL writes resumed, the backlog is written${dropped}`);
        this.#outage = null;
        this.#dropped = 0;
      }
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #done(): void {
    const batch = this.#queue.shift()!;
    this.#statements -= batch.statements.length;
    this.#bytes -= batch.size;
    this.#deps.settled();
  }
}
