/**
 * The `openai` SDK against a running gateway: chat completions and Responses, stream and not, with the
 * SDK's own helpers, routed to an upstream of every format.
 */
import OpenAI from "openai";
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

const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
const RESPONSES_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

async function setup(): Promise<E2E & { client: OpenAI }> {
  const e2e = await startE2E({
    text: textAnswer("Hello from the gateway."),
    tool: (request) =>
      JSON.stringify(request.body).includes("18C sunny")
        ? textAnswer("It is 18C and sunny in Paris.")
        : toolAnswer([["get_weather", '{"city":"Paris"}', "call_paris_1"]]),
    two_cities: twoCityAnswer,
  });
  const client = new OpenAI({ baseURL: `${e2e.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return Object.assign(e2e, { client });
}

Deno.test("openai SDK: chat.completions.create non-stream parses text, finish and usage from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const answer = await e.client.chat.completions.create({
        model: `${prefix}/text`,
        messages: [{ role: "system", content: "Be terse." }, { role: "user", content: "hi" }],
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(answer.object, "chat.completion");
      assertEquals(answer.choices[0].message.content, "Hello from the gateway.");
      assertEquals(answer.choices[0].finish_reason, "stop");
      assertEquals(answer.usage?.prompt_tokens, 12);
      assertEquals(answer.usage?.completion_tokens, 6);
      assertEquals(answer.usage?.total_tokens, 18);
    });
  }
});

Deno.test("openai SDK: chat.completions.create stream iterates chunks to the text and the usage chunk", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const stream = await e.client.chat.completions.create({
        model: `${prefix}/text`,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "hi" }],
      });
      let text = "";
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        assertEquals(chunk.object, "chat.completion.chunk");
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assertEquals(text, "Hello from the gateway.");
      assertEquals(finish, "stop");
      assertEquals([usage?.prompt_tokens, usage?.completion_tokens], [12, 6]);
    });
  }
});

Deno.test("openai SDK: chat.completions.stream() helper emits content events and a final completion", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      let deltas = "";
      const runner = e.client.chat.completions.stream({
        model: `${prefix}/text`,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "hi" }],
      }).on("content", (delta) => {
        deltas += delta;
      });
      const final = await runner.finalChatCompletion();
      assertEquals(deltas, "Hello from the gateway.");
      assertEquals(final.choices[0].message.content, "Hello from the gateway.");
      assertEquals(final.choices[0].finish_reason, "stop");
      assertEquals(final.usage?.prompt_tokens, 12);
    });
  }
});

Deno.test("openai SDK: chat tool calls arrive parsed (non-stream and stream helper) and the result goes back", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
      const first = await e.client.chat.completions.create({
        model: `${prefix}/tool`,
        messages,
        tools: [WEATHER_TOOL],
      });
      const call = first.choices[0].message.tool_calls?.[0];
      assert(call?.type === "function", "a function tool call");
      assertEquals(call.function.name, "get_weather");
      assertEquals(JSON.parse(call.function.arguments), { city: "Paris" });
      assert(call.id !== "", "tool call id");
      assertEquals(first.choices[0].finish_reason, "tool_calls");

      const streamed = await e.client.chat.completions.stream({
        model: `${prefix}/tool`,
        messages,
        tools: [WEATHER_TOOL],
      }).finalChatCompletion();
      const streamedCall = streamed.choices[0].message.tool_calls?.[0];
      assert(streamedCall?.type === "function", "a streamed function tool call");
      assertEquals(streamedCall.function.name, "get_weather");
      assertEquals(JSON.parse(streamedCall.function.arguments), { city: "Paris" });
      assertEquals(streamed.choices[0].finish_reason, "tool_calls");

      const second = await e.client.chat.completions.create({
        model: `${prefix}/tool`,
        messages: [
          ...messages,
          first.choices[0].message,
          { role: "tool", tool_call_id: call.id, content: "18C sunny" },
        ],
        tools: [WEATHER_TOOL],
      });
      assertEquals(second.choices[0].message.content, "It is 18C and sunny in Paris.");
      assertEquals(second.choices[0].finish_reason, "stop");
    });
  }
});

Deno.test("openai SDK: responses.create and responses.stream() give output_text, events and usage", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const answer = await e.client.responses.create({
        model: `${prefix}/text`,
        instructions: "Be terse.",
        input: "hi",
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(answer.object, "response");
      assertEquals(answer.status, "completed");
      assertEquals(answer.output_text, "Hello from the gateway.");
      assertEquals([answer.usage?.input_tokens, answer.usage?.output_tokens], [12, 6]);

      let deltas = "";
      const stream = e.client.responses.stream({ model: `${prefix}/text`, input: "hi" });
      stream.on("response.output_text.delta", (event) => {
        deltas += event.delta;
      });
      const final = await stream.finalResponse();
      assertEquals(deltas, "Hello from the gateway.");
      assertEquals(final.output_text, "Hello from the gateway.");
      assertEquals(final.status, "completed");
      assertEquals([final.usage?.input_tokens, final.usage?.output_tokens], [12, 6]);

      const raw = await e.client.responses.create({ model: `${prefix}/text`, input: "hi", stream: true });
      const types: string[] = [];
      for await (const event of raw) types.push(event.type);
      assertEquals(types[0], "response.created");
      assertEquals(types.at(-1), "response.completed");
    });
  }
});

Deno.test("openai SDK: responses function calls arrive as function_call items and the output goes back", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const first = await e.client.responses.create({
        model: `${prefix}/tool`,
        input: "Weather in Paris?",
        tools: [RESPONSES_TOOL],
      });
      const call = first.output.find((item) => item.type === "function_call");
      assert(call?.type === "function_call", "a function_call output item");
      assertEquals(call.name, "get_weather");
      assertEquals(JSON.parse(call.arguments), { city: "Paris" });
      assert(call.call_id !== "", "call_id");

      const streamed = await e.client.responses.stream({
        model: `${prefix}/tool`,
        input: "Weather in Paris?",
        tools: [RESPONSES_TOOL],
      }).finalResponse();
      const streamedCall = streamed.output.find((item) => item.type === "function_call");
      assert(streamedCall?.type === "function_call", "a streamed function_call item");
      assertEquals(JSON.parse(streamedCall.arguments), { city: "Paris" });

      const second = await e.client.responses.create({
        model: `${prefix}/tool`,
        input: [
          { role: "user", content: "Weather in Paris?" },
          { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: "function_call_output", call_id: call.call_id, output: "18C sunny" },
        ],
        tools: [RESPONSES_TOOL],
      });
      assertEquals(second.output_text, "It is 18C and sunny in Paris.");
    });
  }
});

const RESULTS: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
const PAIRED = [["Paris", "18C sunny"], ["Rome", "24C clear"]];

function cities(e: E2E): string[][] {
  const last = e.requests.at(-1);
  assert(last !== undefined, "an upstream request");
  return upstreamToolPairs(last).map(([args, text]) => [args === "" ? "" : JSON.parse(args).city, text]);
}

Deno.test("openai SDK: parallel chat tool calls come back and both results reach the upstream paired", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Paris and Rome?" }];
      const first = await e.client.chat.completions.stream({
        model: `${prefix}/two_cities`,
        messages,
        tools: [WEATHER_TOOL],
      }).finalChatCompletion();
      const calls = (first.choices[0].message.tool_calls ?? []).filter((c) => c.type === "function");
      assertEquals(calls.map((c) => JSON.parse(c.function.arguments).city), ["Paris", "Rome"]);
      assertEquals(new Set(calls.map((c) => c.id)).size, 2, "distinct call ids");
      const second = await e.client.chat.completions.create({
        model: `${prefix}/two_cities`,
        messages: [
          ...messages,
          first.choices[0].message,
          ...calls.map((c) => ({
            role: "tool" as const,
            tool_call_id: c.id,
            content: RESULTS[JSON.parse(c.function.arguments).city],
          })),
        ],
        tools: [WEATHER_TOOL],
      });
      assertEquals(cities(e), PAIRED);
      assertEquals(second.choices[0].message.content, "Paris 18C, Rome 24C.");
    });
  }
});

Deno.test("openai SDK: parallel Responses function calls come back and both outputs reach the upstream paired", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const first = await e.client.responses.stream({
        model: `${prefix}/two_cities`,
        input: "Paris and Rome?",
        tools: [RESPONSES_TOOL],
      }).finalResponse();
      const calls = first.output.filter((item) => item.type === "function_call");
      assertEquals(calls.map((c) => JSON.parse(c.arguments).city), ["Paris", "Rome"]);
      const second = await e.client.responses.create({
        model: `${prefix}/two_cities`,
        input: [
          { role: "user", content: "Paris and Rome?" },
          ...calls.map((c) => ({
            type: "function_call" as const,
            call_id: c.call_id,
            name: c.name,
            arguments: c.arguments,
          })),
          ...calls.map((c) => ({
            type: "function_call_output" as const,
            call_id: c.call_id,
            output: RESULTS[JSON.parse(c.arguments).city],
          })),
        ],
        tools: [RESPONSES_TOOL],
      });
      assertEquals(cities(e), PAIRED);
      assertEquals(second.output_text, "Paris 18C, Rome 24C.");
    });
  }
});

Deno.test("openai SDK: models.list pages the routable models; an unknown model is a typed NotFoundError", async () => {
  await using e = await setup();
  const ids: string[] = [];
  for await (const model of e.client.models.list()) ids.push(model.id);
  for (const { prefix } of UPSTREAMS) assert(ids.includes(`${prefix}/text`), `${prefix}/text listed`);
  const error = await e.client.chat.completions.create({
    model: "nowhere/m1",
    messages: [{ role: "user", content: "hi" }],
  }).then(() => undefined, (error: unknown) => error);
  assert(error instanceof OpenAI.NotFoundError, `a NotFoundError, got ${error}`);
  assertEquals(error.status, 404);
  assertStringIncludes(error.message, "nowhere");
});
