/**
 * Synchronous PostgreSQL calls block the main thread, so each one is bounded: a server that does not
 * answer gives a clear error after the timeout, later calls fail at once instead of blocking again, and
 * calls work again when the server answers.
 */
import {
  DOWN_CODE,
  PgDatabase,
  PostgresError,
  TIMEOUT_CODE,
} from "../../src/storage/postgres/pg_database.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";

function thrown(work: () => unknown): PostgresError {
  try {
    work();
  } catch (error) {
    assert(error instanceof PostgresError, String(error));
    return error;
  }
  throw new Error("expected an error");
}

Deno.test("PgDatabase.connect() to a server that accepts but never answers fails after the timeout", () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  // Accepts (so the connect itself succeeds) and never says a word.
  const accepting = (async () => {
    for await (const connection of silent) held.push(connection);
  })();
  const port = (silent.addr as Deno.NetAddr).port;
  const started = performance.now();
  // The accept loop cannot run while the main thread waits; the kernel's backlog accepts for it.
  const error = thrown(() => PgDatabase.connect(`postgres://gw@127.0.0.1:${port}/gateway`, 500));
  const waited = performance.now() - started;
  assertEquals(error.code, TIMEOUT_CODE);
  assert(error.message.includes("did not answer within 500 ms"), error.message);
  // Bounded well under the 10 s default call timeout: the worker's start on a busy machine takes a while.
  assert(waited >= 450 && waited < 6_000, `waited ${waited} ms`);
  silent.close();
  for (const connection of held) connection.close();
  return accepting;
});

Deno.test({
  name: "PgDatabase: a call that outlives the timeout fails; the next fail at once until it is answered",
  ignore: postgresSkip("call timeout"),
  async fn() {
    const url = await (await testPostgres()).newDatabase();
    // Calls wait 1 s; the connection may take longer (the worker starts, a loaded machine).
    const db = PgDatabase.connect(url, 1_000, 10_000);
    try {
      const slow = thrown(() => db.prepare("SELECT pg_sleep(2)").get());
      assertEquals(slow.code, TIMEOUT_CODE);
      const started = performance.now();
      const next = thrown(() => db.prepare("SELECT 1 AS one").get());
      // Failing at once, not after a second call timeout (a busy machine can stall this a little).
      assert(performance.now() - started < 500, "no second wait while the first call is still out");
      assert(next.message.includes("has not answered an earlier call"), next.message);

      // Calls keep failing at once until the sleeping call's stale answer has come in.
      let answer: unknown;
      await waitFor(() => {
        try {
          answer = db.prepare("SELECT 1 AS one").get();
          return true;
        } catch (error) {
          if ((error as Error).message.includes("has not answered an earlier call")) return false;
          throw error;
        }
      }, { what: "the sleeping call's answer", intervalMs: 50 });
      assertEquals(answer, { one: 1 }, "the stale answer is not taken for this one");
      assertEquals(db.prepare("SELECT 2 AS two").get(), { two: 2 });
    } finally {
      db.close();
    }
  },
});

Deno.test({
  name: "PgDatabase: once a call finds the server gone, calls fail at once until a probe reaches it again",
  ignore: postgresSkip("server gone"),
  async fn() {
    const server = await testPostgres();
    const url = await server.newDatabase();
    const db = PgDatabase.connect(url, 5_000);
    let paused = false;
    try {
      assertEquals(db.prepare("SELECT 1 AS one").get(), { one: 1 });
      await server.pause();
      paused = true;
      const first = thrown(() => db.prepare("SELECT 1 AS one").get());
      assert(first.code !== DOWN_CODE, "the first failure is the real one");
      const started = performance.now();
      const next = thrown(() => db.prepare("SELECT 1 AS one").get());
      assertEquals(next.code, DOWN_CODE);
      // Without trying the network: within a fraction of the 5 s call timeout even on a busy machine.
      assert(performance.now() - started < 1_000, "failed without trying the network");
      assert(next.message.includes("PostgreSQL is unreachable"), next.message);

      await server.resume();
      paused = false;
      let answer: unknown;
      await waitFor(() => {
        try {
          answer = db.prepare("SELECT 1 AS one").get();
          return true;
        } catch (error) {
          assertEquals((error as PostgresError).code, DOWN_CODE, String(error));
          return false;
        }
      }, { what: "calls to work again after the server came back", intervalMs: 100 });
      assertEquals(answer, { one: 1 });
    } finally {
      if (paused) await server.resume();
      db.close();
    }
  },
});
