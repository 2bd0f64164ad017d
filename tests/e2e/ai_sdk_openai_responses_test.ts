/**
 * The Vercel AI SDK's OpenAI Responses provider (`openai.responses(model)` from `@ai-sdk/openai`, defaults
 * untouched) runs a multi-step tool loop through the gateway, to every upstream format. With its defaults it
 * sends `store: true` and names the earlier step's text by `item_reference`: the gateway must keep each
 * response and resolve the reference, so each upstream receives the whole conversation (issue 30).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, isStepCount, jsonSchema, streamText, tool } from "ai";
import type { NeutralResponse } from "../../src/model/mod.ts";
import type { RecordedRequest } from "../helpers/mock_upstream.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startE2E, textAnswer, toolAnswer, UPSTREAMS, upstreamToolPairs } from "./harness.ts";

const WEATHER: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
const FINAL = "Paris is 18C and sunny, Rome 24C and clear.";

let answered = 0;

/** A fresh upstream id per answer: the response id the client stores and refers to derives from it. */
function fresh(answer: NeutralResponse): NeutralResponse {
  return { ...answer, id: `e2e-loop-${++answered}` };
}

/**
 * Step 1: text, then a call for Paris; step 2 (Paris's weather in the conversation): text, then a call for
 * Rome; step 3: the final text.
 */
function loopAnswer(request: RecordedRequest): NeutralResponse {
  const body = JSON.stringify(request.body);
  if (body.includes(WEATHER.Rome)) return fresh(textAnswer(FINAL));
  if (body.includes(WEATHER.Paris)) {
    return fresh(toolAnswer([["get_weather", '{"city":"Rome"}', `call_rome_${answered}`]], "Now Rome."));
  }
  return fresh(
    toolAnswer([["get_weather", '{"city":"Paris"}', `call_paris_${answered}`]], "Checking Paris first."),
  );
}

const tools = {
  get_weather: tool({
    description: "Current weather for a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: ({ city }) => Promise.resolve(WEATHER[city] ?? "unknown"),
  }),
};

/** What the upstream saw on the last step: both earlier texts and both calls with their results. */
function assertWholeConversation(last: RecordedRequest): void {
  const body = JSON.stringify(last.body);
  assert(body.includes("Checking Paris first."), `step 1's text reached the upstream: ${body}`);
  assert(body.includes("Now Rome."), `step 2's text reached the upstream: ${body}`);
  assertEquals(upstreamToolPairs(last), [['{"city":"Paris"}', WEATHER.Paris], [
    '{"city":"Rome"}',
    WEATHER.Rome,
  ]]);
}

Deno.test("AI SDK openai.responses() runs a tool loop with text before each call through every upstream", async (t) => {
  await using e = await startE2E({ loop: (request) => loopAnswer(request) });
  const openai = createOpenAI({ baseURL: `${e.url}/v1`, apiKey: "anything" });
  for (const { prefix, format } of UPSTREAMS) {
    for (const stream of [false, true]) {
      await t.step(`${prefix} ${stream ? "streamText" : "generateText"}`, async () => {
        const before = e.requests.length;
        const ask = {
          model: openai.responses(`${prefix}/loop`),
          prompt: "Weather in Paris, then Rome?",
          tools,
          stopWhen: isStepCount(5),
        };
        let text: string;
        let steps: { toolCalls: unknown[] }[];
        if (stream) {
          const result = streamText(ask);
          text = await result.text;
          steps = await result.steps;
        } else {
          ({ text, steps } = await generateText(ask));
        }
        assertEquals(text, FINAL);
        assertEquals(steps.map((s) => s.toolCalls.length), [1, 1, 0]);
        const served = e.requests.slice(before);
        assertEquals(served.length, 3);
        assertEquals(e.lastUpstreamFormat(), format);
        assertWholeConversation(served[2]);
      });
    }
  }
});
