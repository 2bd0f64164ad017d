/**
 * Estimates for answers without upstream usage are counted by the token-count worker: the tokenizer's
 * tables never load on the serving thread. These tests share one isolate, so the first one checks that
 * nothing in this isolate loaded them.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { attemptWithoutUsage, startChatGateway } from "../helpers/chat_gateway.ts";
import { tokenizerLoaded } from "../../src/accounting/mod.ts";

const setup = startChatGateway;

const ASK = { model: "p/m1", messages: [{ role: "user", content: "hello world" }] };

Deno.test("answers with and without upstream usage never load the tokenizer on the serving thread", async () => {
  await using t = await setup();
  t.mock.script({ json: chatCompletion("Hi") });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ASK)).status, 200);
  const { usage: _, ...withoutUsage } = chatCompletion("hello world");
  t.mock.script({ json: withoutUsage });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ASK)).status, 200);
  const rows = await usageRows(t.gw);
  assertEquals(rows.map((row) => row.estimated), [0, 1]);
  assertEquals([rows[1].input_tokens, rows[1].output_tokens], [9, 2]);
  assertEquals(tokenizerLoaded(), false);
});

Deno.test("a row without usage is written when the worker's count arrives; shutdown waits for it", async () => {
  await using t = await setup();
  const writer = t.gw.runtime.writer;
  writer.flush();
  t.gw.runtime.recorder.record(attemptWithoutUsage("hello world"), Date.now());
  // The count is a message to the worker and back, so nothing can be queued yet.
  assertEquals(writer.pending, 0);
  await t.gw.runtime.close();
  // On PostgreSQL the last batch is committed by the bridge; closing the store waits for it, as this does.
  t.gw.runtime.control.store.settleWrites();
  const [row] = t.gw.runtime.control.store.db.prepare("SELECT * FROM usage").all() as Record<
    string,
    unknown
  >[];
  assert(row !== undefined, "the estimated row was written before shutdown ended");
  assertEquals([row.status, row.output_tokens, row.estimated], [200, 2, 1]);
  assertEquals(row.input_tokens, 9, "priming 3 + message overhead 4 + 2 tokens");
});
