/// <reference lib="deno.worker" />
/**
 * The PostgreSQL bridge worker: owns the connections and answers the main thread (see bridge_protocol.ts).
 * Three connections: one for synchronous calls (so a transaction the main thread opens stays on it), one
 * for batched writes (committed while the main thread serves requests), and one that LISTENs.
 */
import postgres from "postgres";
import {
  type BoundStatement,
  type BridgeAnswer,
  type BridgeRequest,
  CELL,
  HEADER_BYTES,
  MAX_BYTES,
  NOTIFY_CHANNEL,
} from "./bridge_protocol.ts";

type Sql = ReturnType<typeof postgres>;

let shared: SharedArrayBuffer;
let cells: Int32Array;
let syncSql: Sql | undefined;
let batchSql: Sql | undefined;
let listenSql: Sql | undefined;
/** Batches run one after another, in the order they were sent. */
let batchChain: Promise<void> = Promise.resolve();

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
  });
}

self.onmessage = async (event: MessageEvent) => {
  if (event.data?.shared) {
    shared = event.data.shared;
    cells = new Int32Array(shared, 0, HEADER_BYTES / 4);
    return;
  }
  const request = event.data as BridgeRequest;
  if (request.op === "batch") {
    runBatch(request.statements);
    return;
  }
  answer(await handle(request));
};

async function handle(request: BridgeRequest): Promise<BridgeAnswer> {
  try {
    switch (request.op) {
      case "connect": {
        syncSql = open(request.url);
        batchSql = open(request.url);
        listenSql = open(request.url);
        await syncSql`SELECT 1`;
        await listenSql.listen(NOTIFY_CHANNEL, () => {
          Atomics.add(cells, CELL.news, 1);
        });
        return { rows: [], changes: 0 };
      }
      case "query": {
        const result = await syncSql!.unsafe(request.sql, request.params as never[]);
        return { rows: [...result] as Record<string, unknown>[], changes: result.count ?? 0 };
      }
      case "exec": {
        await syncSql!.unsafe(request.sql).simple();
        return { rows: [], changes: 0 };
      }
      case "drain":
        await batchChain;
        return { rows: [], changes: 0 };
      case "close":
        await batchChain;
        await Promise.all([syncSql?.end(), batchSql?.end(), listenSql?.end()]);
        return { rows: [], changes: 0 };
    }
  } catch (error) {
    const e = error as { message?: string; code?: string };
    return { error: e.message ?? String(error), code: e.code };
  }
  return { error: "unknown bridge operation" };
}

/** Commits one batch after the ones before it; the main thread counted it in `pendingBatches`. */
function runBatch(statements: readonly BoundStatement[]): void {
  batchChain = batchChain.then(async () => {
    try {
      // Returning the queries unawaited pipelines them: one round trip for the whole batch.
      await batchSql!.begin((tx) => statements.map((s) => tx.unsafe(s.sql, s.params as never[])));
    } catch (error) {
      console.error(`gateway: dropped a batch of ${statements.length} writes: ${(error as Error).message}`);
    } finally {
      Atomics.sub(cells, CELL.pendingBatches, 1);
    }
  });
}

function answer(result: BridgeAnswer): void {
  let bytes = new TextEncoder().encode(JSON.stringify(result));
  if (HEADER_BYTES + bytes.length > MAX_BYTES) {
    bytes = new TextEncoder().encode(JSON.stringify({ error: `answer too large (${bytes.length} bytes)` }));
  }
  if (HEADER_BYTES + bytes.length > shared.byteLength) shared.grow(HEADER_BYTES + bytes.length);
  new Uint8Array(shared, HEADER_BYTES, bytes.length).set(bytes);
  Atomics.store(cells, CELL.length, bytes.length);
  Atomics.store(cells, CELL.state, 1);
  Atomics.notify(cells, CELL.state);
}
