/**
 * The OpenAI Agents SDK (`@openai/agents`) against the gateway: an agent with a tool runs twice, the second
 * run continuing the first with `previousResponseId`, so the SDK sends only each turn's new items and the
 * gateway must answer from the stored conversation (issue 30). Tracing export is off: nothing leaves loopback.
 */
import OpenAI from "openai";
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
import type { NeutralResponse } from "../../src/model/mod.ts";
import type { RecordedRequest } from "../helpers/mock_upstream.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startE2E, textAnswer, toolAnswer, UPSTREAMS, upstreamToolPairs } from "./harness.ts";

const WEATHER: Record<string, string> = { Paris: "18C sunny", Rome: "24C clear" };
const PARIS = "Paris is 18C and sunny.";
const ROME = "Rome is 24C and clear.";
const FOLLOW_UP = "And in Rome?";

let answered = 0;

/** A fresh upstream id per answer: the response id the SDK continues from derives from it. */
function fresh(answer: NeutralResponse): NeutralResponse {
  return { ...answer, id: `e2e-agent-${++answered}` };
}

/** Run 1 asks for Paris (a call, then the answer); run 2 follows up with Rome the same way. */
function agentAnswer(request: RecordedRequest): NeutralResponse {
  const body = JSON.stringify(request.body);
  if (body.includes(WEATHER.Rome)) return fresh(textAnswer(ROME));
  if (body.includes(FOLLOW_UP)) {
    return fresh(toolAnswer([["get_weather", '{"city":"Rome"}', `call_r${answered}`]]));
  }
  if (body.includes(WEATHER.Paris)) return fresh(textAnswer(PARIS));
  return fresh(toolAnswer([["get_weather", '{"city":"Paris"}', `call_p${answered}`]], "Checking."));
}

const getWeather = tool({
  name: "get_weather",
  description: "Current weather for a city",
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => Promise.resolve(WEATHER[city] ?? "unknown"),
});

Deno.test("OpenAI Agents SDK continues a conversation with previousResponseId through the gateway", async (t) => {
  await using e = await startE2E({ agent: (request) => agentAnswer(request) });
  // What the SDK sent, to show it relied on the gateway's stored state.
  const sent: Record<string, unknown>[] = [];
  const client = new OpenAI({
    baseURL: `${e.url}/v1`,
    apiKey: "anything",
    maxRetries: 0,
    fetch: (input, init) => {
      if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
      return fetch(input, init);
    },
  });
  setDefaultOpenAIClient(client);
  setTracingDisabled(true);
  const targets = UPSTREAMS.filter((u) =>
    ["up_chat", "up_responses", "up_messages", "up_generate"].includes(u.prefix)
  );
  for (const { prefix, format } of targets) {
    await t.step(prefix, async () => {
      sent.length = 0;
      const before = e.requests.length;
      const agent = new Agent({
        name: "weather",
        instructions: "Answer with the weather tool.",
        model: `${prefix}/agent`,
        tools: [getWeather],
      });
      const first = await run(agent, "Weather in Paris?");
      assertEquals(first.finalOutput, PARIS);
      assert(first.lastResponseId, "the first run ends with a response id");

      const second = await run(agent, FOLLOW_UP, { previousResponseId: first.lastResponseId });
      assertEquals(second.finalOutput, ROME);
      assertEquals(e.lastUpstreamFormat(), format);

      // The SDK sent only the follow-up, naming the stored response it continues.
      const continued = sent.find((body) => JSON.stringify(body.input).includes(FOLLOW_UP))!;
      assertEquals(continued.previous_response_id, first.lastResponseId);
      assert(!JSON.stringify(continued.input).includes("Weather in Paris?"), "only the new turn is sent");

      // The upstream got the whole conversation on the last turn, whatever it speaks.
      const served = e.requests.slice(before);
      assertEquals(served.length, 4);
      const last = JSON.stringify(served[3].body);
      for (const piece of ["Weather in Paris?", PARIS, FOLLOW_UP]) {
        assert(last.includes(piece), `"${piece}" reached the upstream: ${last}`);
      }
      assertEquals(upstreamToolPairs(served[3]), [
        ['{"city":"Paris"}', WEATHER.Paris],
        ['{"city":"Rome"}', WEATHER.Rome],
      ]);
    });
  }
});
