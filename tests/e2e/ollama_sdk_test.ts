/**
 * The `ollama` SDK against a running gateway: chat and generate (stream and not), tool calls, show and
 * list, routed to upstreams of every format.
 */
import { Ollama, type Tool } from "ollama";
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

const WEATHER_TOOL: Tool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

async function setup(): Promise<E2E & { client: Ollama }> {
  const e2e = await startE2E({
    text: textAnswer("Hello from the gateway."),
    tool: (request) =>
      JSON.stringify(request.body).includes("18C sunny")
        ? textAnswer("It is 18C and sunny in Paris.")
        : toolAnswer([["get_weather", '{"city":"Paris"}', "call_paris_1"]]),
    two_cities: twoCityAnswer,
  });
  return Object.assign(e2e, { client: new Ollama({ host: e2e.url }) });
}

Deno.test("ollama SDK: chat non-stream and stream parse text, done_reason and counts from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const answer = await e.client.chat({
        model: `${prefix}/text`,
        messages: [{ role: "system", content: "Be terse." }, { role: "user", content: "hi" }],
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(answer.message.role, "assistant");
      assertEquals(answer.message.content, "Hello from the gateway.");
      assertEquals(answer.done, true);
      assertEquals(answer.done_reason, "stop");
      assertEquals([answer.prompt_eval_count, answer.eval_count], [12, 6]);

      const stream = await e.client.chat({
        model: `${prefix}/text`,
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      });
      let text = "";
      let last:
        | { done: boolean; done_reason: string; prompt_eval_count: number; eval_count: number }
        | undefined;
      for await (const part of stream) {
        text += part.message.content;
        last = part;
      }
      assertEquals(text, "Hello from the gateway.");
      assertEquals([last?.done, last?.done_reason], [true, "stop"]);
      assertEquals([last?.prompt_eval_count, last?.eval_count], [12, 6]);
    });
  }
});

Deno.test("ollama SDK: chat tool calls arrive with object arguments and the tool result goes back", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    for (const stream of [false, true]) {
      await t.step(`${prefix} ${stream ? "stream" : "non-stream"}`, async () => {
        const messages = [{ role: "user", content: "Weather in Paris?" }];
        const calls = [];
        if (stream) {
          const parts = await e.client.chat({
            model: `${prefix}/tool`,
            messages,
            tools: [WEATHER_TOOL],
            stream,
          });
          for await (const part of parts) calls.push(...(part.message.tool_calls ?? []));
        } else {
          const answer = await e.client.chat({ model: `${prefix}/tool`, messages, tools: [WEATHER_TOOL] });
          calls.push(...(answer.message.tool_calls ?? []));
        }
        assertEquals(calls.map((c) => [c.function.name, c.function.arguments]), [
          ["get_weather", { city: "Paris" }],
        ]);

        const second = await e.client.chat({
          model: `${prefix}/tool`,
          messages: [
            ...messages,
            { role: "assistant", content: "", tool_calls: calls },
            { role: "tool", content: "18C sunny", tool_name: "get_weather" },
          ],
          tools: [WEATHER_TOOL],
        });
        assertEquals(second.message.content, "It is 18C and sunny in Paris.");
      });
    }
  }
});

Deno.test("ollama SDK: parallel tool calls come back and both tool messages reach the upstream paired in order", async (t) => {
  await using e = await setup();
  const results: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const messages = [{ role: "user", content: "Paris and Rome?" }];
      const first = await e.client.chat({ model: `${prefix}/two_cities`, messages, tools: [WEATHER_TOOL] });
      const calls = first.message.tool_calls ?? [];
      assertEquals(calls.map((c) => c.function.arguments), [{ city: "Paris" }, { city: "Rome" }]);
      const second = await e.client.chat({
        model: `${prefix}/two_cities`,
        messages: [
          ...messages,
          { role: "assistant", content: "", tool_calls: calls },
          ...calls.map((c) => ({
            role: "tool",
            content: results[String(c.function.arguments.city)],
            tool_name: c.function.name,
          })),
        ],
        tools: [WEATHER_TOOL],
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
      assertEquals(second.message.content, "Paris 18C, Rome 24C.");
    });
  }
});

Deno.test("ollama SDK: generate non-stream and stream give the response text and counts", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const answer = await e.client.generate({ model: `${prefix}/text`, prompt: "hi", system: "Be terse." });
      assertEquals(answer.response, "Hello from the gateway.");
      assertEquals([answer.done, answer.done_reason], [true, "stop"]);
      assertEquals([answer.prompt_eval_count, answer.eval_count], [12, 6]);

      let text = "";
      let done = false;
      for await (
        const part of await e.client.generate({ model: `${prefix}/text`, prompt: "hi", stream: true })
      ) {
        text += part.response;
        done = part.done;
      }
      assertEquals(text, "Hello from the gateway.");
      assert(done, "the last part is done");
    });
  }
});

Deno.test("ollama SDK: list and show describe the routable models", async () => {
  await using e = await setup();
  const listed = await e.client.list();
  const names = listed.models.map((m) => m.name);
  for (const { prefix } of UPSTREAMS) {
    assert(names.includes(`${prefix}/text`), `${prefix}/text listed`);
    assert(names.includes(`${prefix}/tool`), `${prefix}/tool listed`);
  }
  const shown = await e.client.show({ model: "up_messages/tool" });
  assert(shown.capabilities.includes("tools"), "tools capability");
  assertEquals(typeof shown.modelfile, "string");
  await assertStatus(e.client.show({ model: "up_messages/missing" }), 404);
  assertEquals(e.requests.length, 0, "listing never calls an upstream");
});

Deno.test("ollama SDK: an unknown model is a ResponseError carrying the gateway's message", async () => {
  await using e = await setup();
  const error = await e.client.chat({ model: "nowhere/m1", messages: [{ role: "user", content: "hi" }] })
    .then(() => undefined, (error: unknown) => error);
  assert(error instanceof Error, `an error, got ${error}`);
  assertEquals((error as { status_code?: number }).status_code, 404);
  assertStringIncludes(error.message, "nowhere");
});

async function assertStatus(promise: Promise<unknown>, status: number): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assertEquals((error as { status_code?: number }).status_code, status);
    return;
  }
  throw new Error(`expected HTTP ${status}`);
}
