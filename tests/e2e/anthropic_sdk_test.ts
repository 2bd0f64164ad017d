/**
 * The `@anthropic-ai/sdk` against a running gateway: messages (plain, streamed with the SDK's helper, a
 * tool-use loop), cache usage, token counting and the model list, routed to upstreams of every format.
 */
import Anthropic from "@anthropic-ai/sdk";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  type E2E,
  startE2E,
  textAnswer,
  toolAnswer,
  twoCityAnswer,
  UPSTREAMS,
  upstreamToolPairs,
} from "./harness.ts";

const WEATHER_TOOL: Anthropic.Tool = {
  name: "get_weather",
  description: "Current weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const CACHE_USAGE = { inputTotal: 1000, cacheRead: 400, cacheWrite: 100, output: 50, reasoning: 0 };

async function setup(): Promise<E2E & { client: Anthropic }> {
  const e2e = await startE2E({
    text: textAnswer("Hello from the gateway."),
    cached: textAnswer("Cached hello.", CACHE_USAGE),
    // The loop: a tool_use first; once the tool's result is in the conversation, the final text.
    tool: (request) =>
      JSON.stringify(request.body).includes("18C sunny")
        ? textAnswer("It is 18C and sunny in Paris.")
        : toolAnswer([["get_weather", '{"city":"Paris"}', "toolu_paris_1"]], "Let me check."),
    two_cities: twoCityAnswer,
    refuse: { status: 400 },
  });
  const client = new Anthropic({ baseURL: e2e.url, apiKey: "anything", maxRetries: 0 });
  return Object.assign(e2e, { client });
}

function textOf(message: Anthropic.Message): string {
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

Deno.test("anthropic SDK: messages.create parses text, stop_reason and usage from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const message = await e.client.messages.create({
        model: `${prefix}/text`,
        max_tokens: 256,
        system: "Be terse.",
        messages: [{ role: "user", content: "hi" }],
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(message.type, "message");
      assertEquals(message.role, "assistant");
      assertEquals(textOf(message), "Hello from the gateway.");
      assertEquals(message.stop_reason, "end_turn");
      assertEquals([message.usage.input_tokens, message.usage.output_tokens], [12, 6]);
    });
  }
});

Deno.test("anthropic SDK: messages.stream() helper emits text events and a final message", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      let deltas = "";
      const stream = e.client.messages.stream({
        model: `${prefix}/text`,
        max_tokens: 256,
        messages: [{ role: "user", content: "hi" }],
      }).on("text", (delta) => {
        deltas += delta;
      });
      const final = await stream.finalMessage();
      assertEquals(deltas, "Hello from the gateway.");
      assertEquals(textOf(final), "Hello from the gateway.");
      assertEquals(final.stop_reason, "end_turn");
      assertEquals([final.usage.input_tokens, final.usage.output_tokens], [12, 6]);

      const raw = await e.client.messages.create({
        model: `${prefix}/text`,
        max_tokens: 256,
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      });
      const types: string[] = [];
      for await (const event of raw) types.push(event.type);
      assertEquals(types[0], "message_start");
      assertEquals(types.at(-1), "message_stop");
    });
  }
});

Deno.test("anthropic SDK: a tool-use loop (tool_use → tool_result → text) works stream and non-stream", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    for (const streamed of [false, true]) {
      await t.step(`${prefix} ${streamed ? "stream" : "non-stream"}`, async () => {
        const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
        const params = { model: `${prefix}/tool`, max_tokens: 256, tools: [WEATHER_TOOL], messages };
        const first = streamed
          ? await e.client.messages.stream(params).finalMessage()
          : await e.client.messages.create(params);
        assertEquals(first.stop_reason, "tool_use");
        assertEquals(textOf(first), "Let me check.");
        const use = first.content.find((block) => block.type === "tool_use");
        assert(use?.type === "tool_use", "a tool_use block");
        assertEquals(use.name, "get_weather");
        assertEquals(use.input, { city: "Paris" });
        assert(use.id !== "", "tool_use id");

        const followUp: Anthropic.MessageParam[] = [
          ...messages,
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "18C sunny" }] },
        ];
        const second = streamed
          ? await e.client.messages.stream({ ...params, messages: followUp }).finalMessage()
          : await e.client.messages.create({ ...params, messages: followUp });
        assertEquals(textOf(second), "It is 18C and sunny in Paris.");
        assertEquals(second.stop_reason, "end_turn");
      });
    }
  }
});

Deno.test("anthropic SDK: cache usage splits into input, cache read and cache creation tokens", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const params = {
        model: `${prefix}/cached`,
        max_tokens: 256,
        system: [{
          type: "text" as const,
          text: "Long cached prompt.",
          cache_control: { type: "ephemeral" as const },
        }],
        messages: [{ role: "user" as const, content: "hi" }],
      };
      for (
        const message of [
          await e.client.messages.create(params),
          await e.client.messages.stream(params).finalMessage(),
        ]
      ) {
        const usage = message.usage;
        assertEquals(usage.cache_read_input_tokens, 400);
        assertEquals(usage.output_tokens, 50);
        // Input tokens exclude both cache buckets; together they are the whole prompt.
        assertEquals(
          usage.input_tokens + (usage.cache_read_input_tokens ?? 0) +
            (usage.cache_creation_input_tokens ?? 0),
          1000,
        );
        if (prefix === "up_messages") assertEquals(usage.cache_creation_input_tokens, 100);
      }
    });
  }
});

Deno.test("anthropic SDK: messages.countTokens counts a prompt and grows with it", async () => {
  await using e = await setup();
  const short = await e.client.messages.countTokens({
    model: "up_messages/text",
    messages: [{ role: "user", content: "hi" }],
  });
  const long = await e.client.messages.countTokens({
    model: "up_chat/text",
    system: "You are a helpful assistant.",
    tools: [WEATHER_TOOL],
    messages: [{ role: "user", content: "Tell me about the weather in Paris, Rome and Berlin today." }],
  });
  assert(short.input_tokens > 0, `short count ${short.input_tokens}`);
  assert(long.input_tokens > short.input_tokens, `${long.input_tokens} > ${short.input_tokens}`);
  // A messages upstream is asked with its own counting endpoint (this mock has none that answers, so the
  // gateway counted); nothing is ever generated.
  assertEquals(e.requests.map((r) => r.path), ["/v1/messages/count_tokens"]);
});

Deno.test("anthropic SDK: models.list reads /v1/models in the messages shape", async () => {
  await using e = await setup();
  const ids: string[] = [];
  for await (const model of e.client.models.list()) {
    assertEquals(model.type, "model");
    assertEquals(typeof model.created_at, "string");
    ids.push(model.id);
  }
  for (const { prefix } of UPSTREAMS) {
    for (const scenario of ["text", "cached", "tool"]) {
      assert(ids.includes(`${prefix}/${scenario}`), `${prefix}/${scenario} listed`);
    }
  }
});

Deno.test("anthropic SDK: parallel tool_use blocks come back and both tool_results reach the upstream paired", async (t) => {
  await using e = await setup();
  const results: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Paris and Rome?" }];
      const params = { model: `${prefix}/two_cities`, max_tokens: 256, tools: [WEATHER_TOOL], messages };
      const first = await e.client.messages.stream(params).finalMessage();
      const uses = first.content.filter((block) => block.type === "tool_use");
      assertEquals(uses.map((u) => (u.input as { city: string }).city), ["Paris", "Rome"]);
      const second = await e.client.messages.create({
        ...params,
        messages: [
          ...messages,
          { role: "assistant", content: first.content },
          {
            role: "user",
            content: uses.map((u) => ({
              type: "tool_result" as const,
              tool_use_id: u.id,
              content: results[(u.input as { city: string }).city],
            })),
          },
        ],
      });
      const last = e.requests.at(-1);
      assert(last !== undefined, "an upstream request");
      assertEquals(
        upstreamToolPairs(last).map(([args, text]) => [args === "" ? "" : JSON.parse(args).city, text]),
        [
          ["Paris", "18C sunny"],
          ["Rome", "24C clear"],
        ],
      );
      assertEquals(textOf(second), "Paris 18C, Rome 24C.");
    });
  }
});

Deno.test("anthropic SDK: an unknown model and a refusing upstream surface as typed API errors", async () => {
  await using e = await setup();
  const missing = await e.client.messages.create({
    model: "nowhere/m1",
    max_tokens: 16,
    messages: [{ role: "user", content: "hi" }],
  }).then(() => undefined, (error: unknown) => error);
  assert(missing instanceof Anthropic.NotFoundError, `a NotFoundError, got ${missing}`);
  assertEquals(missing.status, 404);
  assertStringIncludes(missing.message, "nowhere");

  const refused = await e.client.messages.create({
    model: "up_chat/refuse",
    max_tokens: 16,
    messages: [{ role: "user", content: "hi" }],
  }).then(() => undefined, (error: unknown) => error);
  assert(refused instanceof Anthropic.BadRequestError, `a BadRequestError, got ${refused}`);
  assertStringIncludes(refused.message, "upstream exploded");
});
