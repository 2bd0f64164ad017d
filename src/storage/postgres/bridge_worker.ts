/// <reference lib="deno.worker" />
/**
 * The PostgreSQL bridge worker: owns the connections and answers the main thread (see bridge_protocol.ts).
 * Three connections: one for synchronous calls (so a transaction the main thread opens stays on it), one
 * for batched writes (committed while the main thread serves requests, kept and retried while the server
 * is unreachable: write_backlog.ts), and one that LISTENs.
 */
import postgres from "postgres";
import {
  type BridgeAnswer,
  type BridgeRequest,
  CELL,
  HEADER_BYTES,
  MAX_BACKLOG_BYTES,
  MAX_BYTES,
  NOTIFY_CHANNEL,
  type NumberedRequest,
  type WorkerNotice,
} from "./bridge_protocol.ts";
import { pgParams } from "./pg_text.ts";
import { isTransient, WriteBacklog } from "./write_backlog.ts";

type Sql = ReturnType<typeof postgres>;

/** How long opening a connection may take before the call fails (the server is down or unreachable). */
const CONNECT_TIMEOUT_S = 10;
/** While the server is unreachable, how often the synchronous connection tries it again. */
const PROBE_MS = 1_000;

let shared: SharedArrayBuffer;
let cells: Int32Array;
let syncSql: Sql | undefined;
let batchSql: Sql | undefined;
let listenSql: Sql | undefined;
let closing = false;

const backlog = new WriteBacklog({
  async commit(statements) {
    // Returning the queries unawaited pipelines them: one round trip for the whole batch.
    await batchSql!.begin((tx) => statements.map((s) => tx.unsafe(s.sql, pgParams(s.params) as never[])));
  },
  settled: () => Atomics.sub(cells, CELL.pendingBatches, 1),
  log: (level, message) => self.postMessage({ log: { level, message } } satisfies WorkerNotice),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  maxBytes: MAX_BACKLOG_BYTES,
});

/** int8 and numeric arrive as text by default; the repositories expect numbers, as node:sqlite gives. */
const NUMBER_TYPES = {
  int8: { to: 20, from: [20], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
};

function open(url: string): Sql {
  return postgres(url, {
    max: 1,
    types: NUMBER_TYPES,
    onnotice: () => {}, // "relation already exists, skipping" from idempotent migrations
    prepare: true,
    connect_timeout: CONNECT_TIMEOUT_S,
  });
}

self.onmessage = async (event: MessageEvent) => {
  if (event.data?.shared) {
    shared = event.data.shared;
    cells = new Int32Array(shared, 0, HEADER_BYTES / 4);
    return;
  }
  const request = event.data as NumberedRequest;
  if (request.op === "batch") {
    backlog.add(request.statements);
    return;
  }
  answer(request.seq, await handle(request));
};

async function handle(request: BridgeRequest): Promise<BridgeAnswer> {
  try {
    switch (request.op) {
      case "connect": {
        syncSql = open(request.url);
        batchSql = open(request.url);
        listenSql = open(request.url);
        await syncSql`SELECT 1`;
        // The driver re-LISTENs after a lost connection and calls the second function each time; what was
        // notified meanwhile is lost, so that counts as news too (readers then look).
        await listenSql.listen(NOTIFY_CHANNEL, () => {
          Atomics.add(cells, CELL.news, 1);
        }, () => {
          Atomics.add(cells, CELL.news, 1);
        });
        return { rows: [], changes: 0 };
      }
      case "query": {
        const result = await syncSql!.unsafe(request.sql, pgParams(request.params) as never[]);
        return { rows: [...result] as Record<string, unknown>[], changes: result.count ?? 0 };
      }
      case "exec": {
        await syncSql!.unsafe(request.sql).simple();
        return { rows: [], changes: 0 };
      }
      case "drain":
        // Waiting would block the main thread until the server is back: say so at once instead.
        if (backlog.failing) {
          return { error: `PostgreSQL is unreachable; ${backlog.waiting} writes wait to be written` };
        }
        await backlog.idle();
        return { rows: [], changes: 0 };
      case "close":
        closing = true;
        await backlog.idle();
        await Promise.all([syncSql?.end(), batchSql?.end(), listenSql?.end()]);
        return { rows: [], changes: 0 };
      case "batch":
        return { error: "a batch has no answer" };
    }
  } catch (error) {
    const e = error as { message?: string; code?: string };
    if (request.op !== "connect" && isTransient(error)) markDown();
    return { error: e.message ?? String(error), code: e.code };
  }
}

/**
 * Marks the server unreachable (the main thread then fails calls at once) and probes it every second on
 * the synchronous connection until it answers. Ends on success or when the database is closed.
 */
function markDown(): void {
  if (Atomics.compareExchange(cells, CELL.down, 0, 1) !== 0) return;
  const probe = async () => {
    if (closing) return;
    try {
      await syncSql!`SELECT 1`;
      Atomics.store(cells, CELL.down, 0);
    } catch {
      setTimeout(probe, PROBE_MS);
    }
  };
  setTimeout(probe, PROBE_MS);
}

/** Writes the answer of call `seq`, unless the main thread stopped waiting for it (then it is dropped). */
function answer(seq: number, result: BridgeAnswer): void {
  if (Atomics.load(cells, CELL.waiting) === seq) {
    let bytes = new TextEncoder().encode(JSON.stringify(result));
    if (HEADER_BYTES + bytes.length > MAX_BYTES) {
      bytes = new TextEncoder().encode(JSON.stringify({ error: `answer too large (${bytes.length} bytes)` }));
    }
    if (HEADER_BYTES + bytes.length > shared.byteLength) shared.grow(HEADER_BYTES + bytes.length);
    new Uint8Array(shared, HEADER_BYTES, bytes.length).set(bytes);
    Atomics.store(cells, CELL.length, bytes.length);
    Atomics.store(cells, CELL.answered, seq);
    Atomics.notify(cells, CELL.answered);
  }
  Atomics.store(cells, CELL.finished, seq);
}
