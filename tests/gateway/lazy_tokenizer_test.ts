/**
 * The tokenizer is loaded only when an upstream leaves usage out. These tests run in order in one
 * isolate: the first needs a tokenizer that nothing has loaded yet.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { attemptWithoutUsage, startChatGateway } from "../helpers/chat_gateway.ts";
import { tokenizerLoaded } from "../../src/accounting/mod.ts";

const setup = startChatGateway;

const ASK = { model: "p/m1", messages: [{ role: "user", content: "hello world" }] };

Deno.test("an upstream that reports usage never loads the tokenizer", async () => {
  await using t = await setup();
  t.mock.script({ json: chatCompletion("Hi") });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ASK)).status, 200);
  const [row] = await usageRows(t.gw);
  assertEquals([row.input_tokens, row.output_tokens, row.estimated], [10, 5, 0]);
  assertEquals(tokenizerLoaded(), false);
});

Deno.test("the first row without usage waits for the tokenizer to load; shutdown waits for that row", async () => {
  await using t = await setup();
  const writer = t.gw.runtime.writer;
  writer.flush();
  t.gw.runtime.recorder.record(attemptWithoutUsage("hello world"), Date.now());
  // Loading is asynchronous, so nothing can be queued yet.
  assertEquals(writer.pending, 0);
  await t.gw.runtime.close();
  // On PostgreSQL the last batch is committed by the bridge; closing the store waits for it, as this does.
  t.gw.runtime.control.store.settleWrites();
  assert(tokenizerLoaded());
  const [row] = t.gw.runtime.control.store.db.prepare("SELECT * FROM usage").all() as Record<
    string,
    unknown
  >[];
  assertEquals([row.status, row.output_tokens, row.estimated], [200, 2, 1]);
  assertEquals(row.input_tokens, 9, "priming 3 + message overhead 4 + 2 tokens");
});

Deno.test("once loaded, answers without usage are estimated at once", async () => {
  await using t = await setup();
  const { usage: _, ...withoutUsage } = chatCompletion("hello world");
  t.mock.script({ json: withoutUsage });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ASK)).status, 200);
  t.gw.runtime.writer.flush();
  const rows = t.gw.runtime.control.store.db.prepare("SELECT estimated FROM usage").all();
  assertEquals(rows, [{ estimated: 1 }]);
});
