/**
 * One request's token estimate must not hold up the others: while a count of a megabyte runs, health
 * checks are answered. These are ordering facts (health answers arrive before the count's), not timings.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatChunk, chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { attemptWithoutUsage, startChatGateway } from "../helpers/chat_gateway.ts";
import { loadTokenizer } from "../../src/accounting/mod.ts";
import { healthAnswersDuringCount } from "../helpers/health_probes.ts";

const MIB = 1024 * 1024;

async function setup() {
  // Loaded up front: building the tables is a one-time cost this test is not about.
  await loadTokenizer();
  return await startChatGateway();
}

/**
 * Text with no whitespace: one run the tokenizer would merge in quadratic time if given whole. Each
 * test uses its own seed: the tokenizer caches pieces it has merged, which would make a repeat cheap.
 */
function runWithoutSpaces(chars: number, seed: number): string {
  let text = "";
  let state = seed;
  const letters = "abcdefghijklmnopqrstuvwxyz";
  while (text.length < chars) {
    let piece = "";
    for (let i = 0; i < 1024; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      // High bits: the low bits of this generator repeat after a few dozen steps.
      piece += letters[(state >>> 16) % 26];
    }
    text += piece;
  }
  return text.slice(0, chars);
}

/**
 * Sends GET /v1/health one after another until `slow` settles; returns how many health answers came
 * back before it did. The first is sent once `slow` is under way (its body is on the wire).
 */
async function healthAnswersBefore(url: string, slow: Promise<unknown>): Promise<number> {
  let settled = false;
  const done = slow.finally(() => (settled = true));
  let answered = 0;
  while (!settled) {
    const health = await fetch(`${url}/v1/health`);
    await health.body?.cancel();
    if (health.status === 200 && !settled) answered++;
    if (answered >= 20) break;
  }
  await done;
  return answered;
}

Deno.test("count_tokens of a 1 MiB body without spaces lets health checks through and answers a plausible count", async () => {
  await using t = await setup();
  const body = {
    model: "p/m1",
    max_tokens: 1,
    messages: [{ role: "user", content: runWithoutSpaces(MIB, 1) }],
  };
  let count = 0;
  const counting = post(`${t.gw.url}/v1/messages/count_tokens`, body).then(async (response) => {
    assertEquals(response.status, 200);
    count = ((await response.json()) as { input_tokens: number }).input_tokens;
  });
  // Probes start once the count itself is running: a count on the serving loop would let none through.
  const answered = await healthAnswersDuringCount(t.gw.url, t.gw.runtime.tokenCounter, counting);
  assert(answered >= 5, `only ${answered} health answers came before the count's`);
  // Random lowercase letters are about two characters a token in o200k_base.
  assert(count > MIB / 4 && count < MIB, `implausible count ${count}`);
});

Deno.test("estimating a 1 MiB prompt for an upstream that reports no usage lets health checks through", async () => {
  await using t = await setup();
  const { usage: _, ...withoutUsage } = chatCompletion("hello world");
  t.mock.script({ json: withoutUsage });
  const ask = { model: "p/m1", messages: [{ role: "user", content: runWithoutSpaces(MIB, 2) }] };
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ask)).status, 200);
  // The answer went out; the row is still being estimated in slices between other work.
  const rows = usageRows(t.gw);
  const answered = await healthAnswersBefore(t.gw.url, rows);
  assert(answered >= 5, `only ${answered} health answers came before the estimate was recorded`);
  const [row] = await rows;
  assertEquals(row.estimated, 1);
  const input = row.input_tokens as number;
  assert(input > MIB / 4 && input < MIB, `implausible estimate ${input}`);
});

Deno.test("an upstream event over the size limit fails the attempt with a message that says so, not a hang", async () => {
  await using t = await setup();
  // 20 MiB in one data line that never ends, sent in 64 KiB chunks.
  const chunk = "x".repeat(64 * 1024);
  t.mock.script({
    chunks: ["data: ", ...Array.from({ length: 320 }, () => chunk)],
    contentType: "text/event-stream",
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const text = await response.text();
  // Like any upstream failing before content: the next account is tried; with none left, the spec's 503.
  assertEquals(response.status, 503, text.slice(0, 500));
  assert(text.includes("The upstream sent an over-long event"), text.slice(0, 500));
  const [row] = await usageRows(t.gw);
  assert(String(row.error).includes("over-long event"), String(row.error));
});

Deno.test("an over-long event after the stream started ends the client's stream with an error chunk and still records the attempt", async () => {
  await using t = await setup();
  const first = `data: ${JSON.stringify(chatChunk({ role: "assistant", content: "Hi" }))}\n\n`;
  const chunk = "x".repeat(64 * 1024);
  t.mock.script({
    chunks: [first, "data: ", ...Array.from({ length: 320 }, () => chunk)],
    contentType: "text/event-stream",
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(response.status, 200);
  const events = (await response.text()).split("\n\n").filter((e) => e.startsWith("data: "))
    .map((e) => e.slice(6));
  assertEquals(events.at(-1), "[DONE]");
  assert(JSON.parse(events.at(-2)!).error.message.includes("over-long event"), events.at(-2));
  const rows = await usageRows(t.gw);
  assertEquals(rows.length, 1);
  assert(String(rows[0].error).includes("over-long event"), String(rows[0].error));
});

Deno.test("shutdown waits for a row whose estimate is still being counted in slices", async () => {
  await using t = await setup();
  const writer = t.gw.runtime.writer;
  writer.flush();
  t.gw.runtime.recorder.record(attemptWithoutUsage(runWithoutSpaces(MIB, 3)), Date.now());
  // A megabyte takes many slices: the row cannot be queued yet.
  assertEquals(writer.pending, 0);
  await t.gw.runtime.close();
  // On PostgreSQL the last batch is committed by the bridge; closing the store waits for it, as this does.
  t.gw.runtime.control.store.settleWrites();
  const rows = t.gw.runtime.control.store.db.prepare(
    "SELECT estimated, input_tokens, output_tokens FROM usage",
  )
    .all() as { estimated: number; input_tokens: number; output_tokens: number }[];
  assertEquals(rows.length, 1);
  assertEquals([rows[0].estimated, rows[0].output_tokens], [1, 2]);
  assert(rows[0].input_tokens > MIB / 4, `implausible estimate ${rows[0].input_tokens}`);
});
