/**
 * The Vercel AI SDK's Google provider (`@ai-sdk/google`) against the gateway with `<prefix>/<model>` ids:
 * it reads a model id with a slash as a resource path and calls
 * `POST /v1beta/<prefix>/<model>:streamGenerateContent`, which the gateway serves like `models/<id>`.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { jsonSchema, streamText, tool } from "ai";
import { assertEquals } from "../helpers/assert.ts";
import { startE2E, textAnswer, toolAnswer, UPSTREAMS } from "./harness.ts";

Deno.test("@ai-sdk/google with <prefix>/<model> ids streams an answer and a tool call from every upstream", async (t) => {
  await using e = await startE2E({
    text: textAnswer("Hello from the gateway."),
    tool: toolAnswer([["get_weather", '{"city":"Paris"}', "call_paris_1"]]),
  });
  const google = createGoogleGenerativeAI({ baseURL: `${e.url}/v1beta`, apiKey: "anything" });
  for (const { prefix, format } of UPSTREAMS) {
    await t.step(prefix, async () => {
      const text = streamText({ model: google(`${prefix}/text`), prompt: "hi" });
      assertEquals(await text.text, "Hello from the gateway.");
      assertEquals(await text.finishReason, "stop");
      assertEquals(e.lastUpstreamFormat(), format);

      const called = streamText({
        model: google(`${prefix}/tool`),
        prompt: "Weather in Paris?",
        tools: {
          get_weather: tool({
            description: "Current weather for a city",
            inputSchema: jsonSchema<{ city: string }>({
              type: "object",
              properties: { city: { type: "string" } },
              required: ["city"],
            }),
          }),
        },
      });
      const calls = await called.toolCalls;
      assertEquals(calls.map((c) => [c.toolName, c.input]), [["get_weather", { city: "Paris" }]]);
      assertEquals(await called.finishReason, "tool-calls");
    });
  }
});
