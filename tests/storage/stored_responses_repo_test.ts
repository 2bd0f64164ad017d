import { openDatabase, type StoredResponseRow, StoredResponsesRepo } from "../../src/storage/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

function row(owner: string, id: string, createdAt: number, expiresAt: number, bytes = 10): StoredResponseRow {
  return {
    owner,
    id,
    createdAt,
    expiresAt,
    accountId: "a-1",
    upstreamKept: false,
    inputItems: "[]",
    response: "x".repeat(bytes),
    items: [{ id: `msg_${id}`, item: `{"id":"msg_${id}"}` }],
  };
}

Deno.test("StoredResponsesRepo.prune() deletes expired responses and their items, and nothing else", () => {
  const db = openDatabase(":memory:");
  const repo = new StoredResponsesRepo(db);
  repo.put(row("key:1", "resp_old", 0, 100));
  repo.put(row("key:1", "resp_new", 50, 200));
  assertEquals(repo.prune(150), 1);
  // Read with an earlier clock: only the sweep could have removed the row.
  assertEquals(repo.get("key:1", "resp_old", 0), null);
  assertEquals(repo.item("key:1", "msg_resp_old", 0), null);
  assertEquals(repo.get("key:1", "resp_new", 150)?.accountId, "a-1");
  assertEquals(repo.item("key:1", "msg_resp_new", 150), '{"id":"msg_resp_new"}');
  db.close();
});

Deno.test("StoredResponsesRepo.trim() drops an owner's oldest responses until it fits, and no other owner's", () => {
  const db = openDatabase(":memory:");
  const repo = new StoredResponsesRepo(db);
  for (let i = 0; i < 4; i++) repo.put(row("key:1", `resp_${i}`, i, 1000, 100));
  repo.put(row("key:2", "resp_other", 0, 1000, 100));
  assertEquals(repo.trim("key:1", 250), 2);
  assertEquals(["resp_0", "resp_1", "resp_2", "resp_3"].map((id) => repo.get("key:1", id, 0) !== null), [
    false,
    false,
    true,
    true,
  ]);
  assertEquals(repo.get("key:2", "resp_other", 0) !== null, true);
  assertEquals(repo.get("key:2", "resp_0", 0), null);
  db.close();
});
