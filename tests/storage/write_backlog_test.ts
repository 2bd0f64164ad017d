/**
 * The PostgreSQL bridge's write backlog: batches wait in order while the server is unreachable and are
 * written when it is back; memory is bounded and what is dropped is counted and said.
 */
import { isTransient, WriteBacklog } from "../../src/storage/postgres/write_backlog.ts";
import type { BoundStatement } from "../../src/storage/postgres/bridge_protocol.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const constraint = Object.assign(new Error("duplicate key value"), { code: "23505", severity: "ERROR" });

function batch(...names: string[]): BoundStatement[] {
  return names.map((sql) => ({ sql, params: [] }));
}

/** A backlog that keeps at most `maxStatements` of the parameterless statements `batch` makes (64 bytes each). */
function harness(maxStatements: number, failures: unknown[]) {
  const committed: string[] = [];
  const lines: string[] = [];
  const sleeps: number[] = [];
  let settled = 0;
  const backlog = new WriteBacklog({
    commit(statements) {
      const failure = failures.shift();
      if (failure !== undefined) return Promise.reject(failure);
      committed.push(...statements.map((s) => s.sql));
      return Promise.resolve();
    },
    settled: () => settled++,
    log: (level, message) => lines.push(`${level}: ${message}`),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    maxBytes: maxStatements * 64,
  });
  return { backlog, committed, lines, sleeps, settled: () => settled };
}

Deno.test("WriteBacklog retries a batch through an outage, in order, with growing waits, and says so once", async () => {
  const h = harness(100, [refused, refused, refused, refused]);
  h.backlog.add(batch("a1", "a2"));
  h.backlog.add(batch("b1"));
  await h.backlog.idle();
  assertEquals(h.committed, ["a1", "a2", "b1"]);
  assertEquals(h.sleeps, [100, 200, 400, 800]);
  assertEquals(h.settled(), 2);
  assertEquals(h.lines, [
    "warn: PostgreSQL writes are failing, retrying (3 writes waiting): connect ECONNREFUSED 127.0.0.1:5432",
    "info: PostgreSQL writes resumed, the backlog is written",
  ]);
});

Deno.test("WriteBacklog keeps at most its bound waiting, and counts and reports what it drops", async () => {
  const failures = Array.from({ length: 20 }, () => refused);
  const h = harness(3, failures);
  h.backlog.add(batch("a1", "a2"));
  h.backlog.add(batch("b1"));
  h.backlog.add(batch("c1", "c2")); // over the bound of 3: dropped
  h.backlog.add(batch("d1")); // still over: dropped, not reported again
  assertEquals(h.backlog.waiting, 3);
  await h.backlog.idle();
  assertEquals(h.committed, ["a1", "a2", "b1"]);
  assertEquals(h.settled(), 4, "dropped batches are settled too, so a drain does not wait for them");
  assertEquals(h.lines.filter((l) => l.includes("backlog is full")).length, 1);
  assert(h.lines.at(-1)!.includes("3 writes were dropped (backlog full)"), h.lines.join("\n"));
  assert(h.sleeps.every((ms) => ms <= 5_000), "the wait between tries is capped");
});

Deno.test("WriteBacklog bounds what waits by size, so one statement carrying many rows counts as much as they do", async () => {
  const h = harness(3, Array.from({ length: 20 }, () => refused));
  h.backlog.add(batch("a1"));
  h.backlog.add([{ sql: "big", params: ["x".repeat(3 * 64)] }]); // one statement, more than the bound: dropped
  assertEquals(h.backlog.waiting, 1);
  await h.backlog.idle();
  assertEquals(h.committed, ["a1"]);
  assertEquals(h.settled(), 2);
});

Deno.test("WriteBacklog drops a batch PostgreSQL refuses for its content after three tries, and goes on", async () => {
  const h = harness(100, [constraint, constraint, constraint]);
  h.backlog.add(batch("bad"));
  h.backlog.add(batch("good"));
  await h.backlog.idle();
  assertEquals(h.committed, ["good"]);
  assertEquals(h.settled(), 2);
  assert(
    h.lines.some((l) => l.startsWith("error: PostgreSQL refused a batch of 1 writes 3 times")),
    h.lines.join("\n"),
  );
});

Deno.test("isTransient() retries connection failures and server shutdowns, not bad data", () => {
  assert(isTransient(refused));
  assert(isTransient({ code: "CONNECTION_CLOSED" }));
  assert(isTransient({ code: "57P01", severity: "FATAL" }), "admin shutdown");
  assert(isTransient({ code: "40001", severity: "ERROR" }), "serialization failure");
  assert(!isTransient(constraint));
  assert(!isTransient({ code: "08P01", severity: "ERROR" }), "protocol violation: the batch, not the link");
  assert(!isTransient(new TypeError("bad parameter")));
});
