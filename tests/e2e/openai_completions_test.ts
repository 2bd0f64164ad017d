/**
 * The `openai` SDK's legacy `completions.create` against a running gateway: the prompt reaches every upstream
 * format as a one-turn chat, and the answer comes back as a text completion, stream and not.
 */
import OpenAI from "openai";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { type E2E, startE2E, textAnswer, UPSTREAMS } from "./harness.ts";

async function setup(): Promise<E2E & { client: OpenAI }> {
  const e2e = await startE2E({ text: textAnswer("Once upon a time.") });
  const client = new OpenAI({ baseURL: `${e2e.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return Object.assign(e2e, { client });
}

Deno.test("openai SDK: completions.create non-stream answers a text completion from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const answer = await e.client.completions.create({
        model: `${prefix}/text`,
        prompt: "Tell me a story",
        max_tokens: 20,
        stop: ["THE END"],
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(answer.object, "text_completion");
      assert(answer.id.startsWith("cmpl-"), answer.id);
      assertEquals(answer.model, `${prefix}/text`);
      assertEquals(answer.choices.length, 1);
      assertEquals(answer.choices[0].text, "Once upon a time.");
      assertEquals(answer.choices[0].finish_reason, "stop");
      assertEquals([answer.usage?.prompt_tokens, answer.usage?.completion_tokens], [12, 6]);
      assertStringIncludes(JSON.stringify(e.requests.at(-1)?.body), "Tell me a story");
    });
  }
});

Deno.test("openai SDK: completions.create stream yields text chunks, the finish and usage from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const stream = await e.client.completions.create({
        model: `${prefix}/text`,
        prompt: ["Tell me a story"],
        stream: true,
      });
      let text = "";
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        assertEquals(chunk.object, "text_completion");
        text += chunk.choices[0]?.text ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assertEquals(text, "Once upon a time.");
      assertEquals(finish, "stop");
      assertEquals([usage?.prompt_tokens, usage?.completion_tokens], [12, 6]);
    });
  }
});

Deno.test("completions: a chat upstream gets a chat body with max_tokens and stop, never the legacy fields", async () => {
  await using e = await setup();
  const response = await e.client.completions.create({
    model: "up_chat/text",
    prompt: "Tell me a story",
    suffix: "and they lived happily",
    max_tokens: 20,
    stop: "THE END",
    logprobs: 2,
    user: "u-1",
  }).withResponse();
  const body = e.requests.at(-1)?.body ?? {};
  assertEquals(body.messages, [{ role: "user", content: "Tell me a story" }]);
  assertEquals([body.max_tokens, body.stop, body.user], [20, ["THE END"], "u-1"]);
  for (const field of ["prompt", "suffix", "logprobs", "echo"]) assertEquals(body[field], undefined, field);
  const warnings = response.response.headers.get("x-gateway-warnings") ?? "";
  assertStringIncludes(warnings, "dropped_field:suffix");
  assertStringIncludes(warnings, "dropped_field:logprobs");
  assertEquals(response.data.choices[0].text, "Once upon a time.");
});

Deno.test("completions: prompts the gateway cannot send get a 400 in OpenAI's error shape", async (t) => {
  await using e = await setup();
  const cases: [string, unknown, string][] = [
    ["token ids", [1, 2, 3], "token ids are not supported"],
    ["several prompts", ["a", "b"], "send one prompt per request"],
    ["empty", "", "must not be empty"],
  ];
  for (const [name, prompt, message] of cases) {
    await t.step(name, async () => {
      const error = await assertRejects(
        () => e.client.completions.create({ model: "up_chat/text", prompt: prompt as string }),
        OpenAI.BadRequestError,
      );
      assertStringIncludes(error.message, message);
      assertEquals((error.error as { type?: string }).type, "invalid_request_error");
    });
  }
  const missing = await fetch(`${e.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "up_chat/text" }),
  });
  assertEquals(missing.status, 400);
  assertStringIncludes(JSON.stringify(await missing.json()), "prompt: is required");
});
