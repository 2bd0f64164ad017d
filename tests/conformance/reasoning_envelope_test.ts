/**
 * Unsigned reasoning (chat-completions `reasoning_content`, as DeepSeek and Kimi send it) reaches a stateless
 * Responses client in a gateway-written `encrypted_content`, and comes back to the upstream as its text on
 * the next turn, even when the client keeps no summary: stateless clients replay a reasoning item only
 * through its encrypted_content.
 */
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { assertEquals } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const THOUGHT = "The user wants Paris weather; call get_weather first.";

const TOOL_TURN = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m1",
  choices: [{
    index: 0,
    finish_reason: "tool_calls",
    message: {
      role: "assistant",
      content: null,
      reasoning_content: THOUGHT,
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      }],
    },
  }],
  usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
};

const FINAL_TURN = {
  ...TOOL_TURN,
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Sunny." } }],
};

const TOOL = {
  type: "function" as const,
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

Deno.test("chat-completions reasoning_content reaches a stateless Responses client as encrypted_content and comes back to the upstream", async (t) => {
  const upstream = await startMockUpstream();
  const gateway = await startTestGateway(
    chatProvidersYaml([{ id: "ds-1", prefix: "ds", url: upstream.url }]),
  );
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "anything", maxRetries: 0 });
  try {
    for (const stream of [false, true]) {
      await t.step(stream ? "stream" : "JSON", async () => {
        upstream.requests.length = 0;
        upstream.script({ json: TOOL_TURN }, { json: FINAL_TURN });
        const user: ResponseInputItem = { role: "user", content: "Weather in Paris?" };
        const ask = {
          model: "ds/m1",
          input: [user],
          tools: [TOOL],
          store: false,
          include: ["reasoning.encrypted_content" as const],
        };
        let output: OpenAI.Responses.ResponseOutputItem[] = [];
        if (stream) {
          for await (const event of await client.responses.create({ ...ask, stream: true })) {
            if (event.type === "response.completed") output = event.response.output;
          }
        } else {
          output = (await client.responses.create(ask)).output;
        }
        const reasoning = output.find((i) => i.type === "reasoning");
        const call = output.find((i) => i.type === "function_call");
        if (reasoning?.type !== "reasoning" || call?.type !== "function_call") {
          throw new Error(`no reasoning and call in ${JSON.stringify(output)}`);
        }
        assertEquals(typeof reasoning.encrypted_content, "string");
        // The client keeps only the opaque content, as stateless clients without summaries do.
        const replayed: ResponseInputItem[] = [
          user,
          {
            type: "reasoning",
            id: reasoning.id,
            summary: [],
            encrypted_content: reasoning.encrypted_content,
          },
          { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: "function_call_output", call_id: call.call_id, output: "sunny, 21C" },
        ];
        await client.responses.create({ ...ask, input: replayed });
        const second = upstream.requests[1].body.messages as Record<string, unknown>[];
        const assistant = second.find((m) => m.role === "assistant");
        assertEquals(assistant?.reasoning_content, THOUGHT);
      });
    }
  } finally {
    await gateway.stop();
    await upstream.close();
  }
});
