/**
 * The `@google/genai` SDK against a running gateway: generateContent and generateContentStream, function
 * calls and usageMetadata, routed to upstreams of every format.
 */
import { ApiError, type Content, GoogleGenAI, type Tool } from "@google/genai";
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
  functionDeclarations: [{
    name: "get_weather",
    description: "Current weather for a city",
    parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  }],
};
const CACHE_USAGE = { inputTotal: 1000, cacheRead: 400, cacheWrite: 0, output: 50, reasoning: 0 };

/**
 * Most tests pin `v1beta` (Gemini CLI's paths); `null` keeps the SDK's default `v1`, which the gateway
 * serves too (tested below).
 */
async function setup(apiVersion: string | null = "v1beta"): Promise<E2E & { client: GoogleGenAI }> {
  const e2e = await startE2E({
    text: textAnswer("Hello from the gateway."),
    cached: textAnswer("Cached hello.", CACHE_USAGE),
    tool: (request) =>
      JSON.stringify(request.body).includes("18C sunny")
        ? textAnswer("It is 18C and sunny in Paris.")
        : toolAnswer([["get_weather", '{"city":"Paris"}', "call_paris_1"]]),
    two_cities: twoCityAnswer,
  });
  const client = new GoogleGenAI({
    apiKey: "anything",
    httpOptions: apiVersion === null ? { baseUrl: e2e.url } : { baseUrl: e2e.url, apiVersion },
  });
  return Object.assign(e2e, { client });
}

Deno.test("genai SDK: generateContent parses text, finishReason and usageMetadata from every upstream", async (t) => {
  await using e = await setup();
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const response = await e.client.models.generateContent({
        model: `${prefix}/text`,
        contents: "hi",
        config: { systemInstruction: "Be terse.", maxOutputTokens: 256 },
      });
      assertEquals(e.lastUpstreamFormat(), format);
      assertEquals(response.text, "Hello from the gateway.");
      assertEquals(response.candidates?.[0].finishReason, "STOP");
      assertEquals(response.usageMetadata?.promptTokenCount, 12);
      assertEquals(response.usageMetadata?.candidatesTokenCount, 6);
      assertEquals(response.usageMetadata?.totalTokenCount, 18);
    });
  }
});

Deno.test("genai SDK: generateContentStream yields the text in chunks and usage at the end", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const stream = await e.client.models.generateContentStream({ model: `${prefix}/text`, contents: "hi" });
      let text = "";
      let finish: string | undefined;
      let prompt: number | undefined;
      let output: number | undefined;
      for await (const chunk of stream) {
        text += chunk.text ?? "";
        finish = chunk.candidates?.[0]?.finishReason ?? finish;
        prompt = chunk.usageMetadata?.promptTokenCount ?? prompt;
        output = chunk.usageMetadata?.candidatesTokenCount ?? output;
      }
      assertEquals(text, "Hello from the gateway.");
      assertEquals(finish, "STOP");
      assertEquals([prompt, output], [12, 6]);
    });
  }
});

Deno.test("genai SDK: function calls arrive (stream and not) and the functionResponse goes back", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const contents: Content[] = [{ role: "user", parts: [{ text: "Weather in Paris?" }] }];
      const first = await e.client.models.generateContent({
        model: `${prefix}/tool`,
        contents,
        config: { tools: [WEATHER_TOOL] },
      });
      const call = first.functionCalls?.[0];
      assertEquals(call?.name, "get_weather");
      assertEquals(call?.args, { city: "Paris" });

      const streamedCalls = [];
      for await (
        const chunk of await e.client.models.generateContentStream({
          model: `${prefix}/tool`,
          contents,
          config: { tools: [WEATHER_TOOL] },
        })
      ) streamedCalls.push(...(chunk.functionCalls ?? []));
      assertEquals(streamedCalls.map((c) => [c.name, c.args]), [["get_weather", { city: "Paris" }]]);

      const modelTurn = first.candidates?.[0].content;
      assert(modelTurn !== undefined, "the model turn");
      const second = await e.client.models.generateContent({
        model: `${prefix}/tool`,
        contents: [
          ...contents,
          modelTurn,
          {
            role: "user",
            parts: [{
              functionResponse: { id: call?.id, name: "get_weather", response: { result: "18C sunny" } },
            }],
          },
        ],
        config: { tools: [WEATHER_TOOL] },
      });
      assertEquals(second.text, "It is 18C and sunny in Paris.");
    });
  }
});

Deno.test("genai SDK: usageMetadata reports cached tokens inside the prompt count", async (t) => {
  await using e = await setup();
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const response = await e.client.models.generateContent({ model: `${prefix}/cached`, contents: "hi" });
      assertEquals(response.text, "Cached hello.");
      assertEquals(response.usageMetadata?.promptTokenCount, 1000);
      assertEquals(response.usageMetadata?.cachedContentTokenCount, 400);
      assertEquals(response.usageMetadata?.candidatesTokenCount, 50);
    });
  }
});

Deno.test("genai SDK: parallel function calls come back and both functionResponses reach the upstream paired", async (t) => {
  await using e = await setup();
  const results: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
  for (const { prefix } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const contents: Content[] = [{ role: "user", parts: [{ text: "Paris and Rome?" }] }];
      const config = { tools: [WEATHER_TOOL] };
      const first = await e.client.models.generateContent({
        model: `${prefix}/two_cities`,
        contents,
        config,
      });
      const calls = first.functionCalls ?? [];
      assertEquals(calls.map((c) => c.args), [{ city: "Paris" }, { city: "Rome" }]);
      const modelTurn = first.candidates?.[0].content;
      assert(modelTurn !== undefined, "the model turn");
      const second = await e.client.models.generateContent({
        model: `${prefix}/two_cities`,
        contents: [...contents, modelTurn, {
          role: "user",
          parts: calls.map((c) => ({
            functionResponse: { id: c.id, name: c.name, response: { result: results[String(c.args?.city)] } },
          })),
        }],
        config,
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
      assertEquals(second.text, "Paris 18C, Rome 24C.");
    });
  }
});

Deno.test("genai SDK: an unknown model is an ApiError carrying the gateway's message", async () => {
  await using e = await setup();
  const error = await e.client.models.generateContent({ model: "nowhere/m1", contents: "hi" })
    .then(() => undefined, (error: unknown) => error);
  assert(error instanceof ApiError, `an ApiError, got ${error}`);
  assertEquals(error.status, 404);
  assertStringIncludes(error.message, "nowhere");
});

Deno.test({
  name: "genai SDK: the default API version (v1 paths) reaches the generate-content surface",
  async fn() {
    await using e = await setup(null);
    const response = await e.client.models.generateContent({ model: "up_chat/text", contents: "hi" });
    assertEquals(response.text, "Hello from the gateway.");
    const stream = await e.client.models.generateContentStream({ model: "up_messages/text", contents: "hi" });
    let text = "";
    for await (const chunk of stream) text += chunk.text ?? "";
    assertEquals(text, "Hello from the gateway.");
  },
});
