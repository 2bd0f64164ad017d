/**
 * Reasoning from a Responses upstream (a `reasoning` item with `encrypted_content`) reaches a messages client
 * (`@anthropic-ai/sdk`, as Claude Code uses it) as a thinking block, and the client's next turn, which
 * replays that block, brings the same encrypted_content (and item id) back to the upstream.
 */
import Anthropic from "@anthropic-ai/sdk";
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const THOUGHT = "The user wants Paris weather; call get_weather first.";
const ENCRYPTED = "gAAAAB-upstream-encrypted-reasoning==";
const CALL_ARGS = '{"city":"Paris"}';

const REASONING_ITEM = {
  type: "reasoning",
  id: "rs_upstream_1",
  summary: [{ type: "summary_text", text: THOUGHT }],
  encrypted_content: ENCRYPTED,
};
const CALL_ITEM = {
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "get_weather",
  arguments: CALL_ARGS,
  status: "completed",
};

function responseBody(output: unknown[], status = "completed") {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status,
    model: "o4-mini",
    output,
    usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 },
  };
}

const FINAL = responseBody([{
  type: "message",
  id: "msg_2",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Sunny.", annotations: [] }],
}]);

const TEXT_ITEM = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Let me think. Paris is usually mild.", annotations: [] }],
};

/** The turn as the Responses API streams it: encrypted_content only on the finished reasoning item. */
function turnEvents(answer: typeof CALL_ITEM | typeof TEXT_ITEM): string[] {
  const opened = answer.type === "function_call"
    ? { ...CALL_ITEM, arguments: "" }
    : { ...TEXT_ITEM, content: [] };
  const growth = answer.type === "function_call"
    ? { type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_1", delta: CALL_ARGS }
    : {
      type: "response.output_text.delta",
      output_index: 1,
      item_id: TEXT_ITEM.id,
      content_index: 0,
      delta: TEXT_ITEM.content[0].text,
    };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: responseBody([], "in_progress") },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { ...REASONING_ITEM, summary: [], encrypted_content: null },
    },
    {
      type: "response.reasoning_summary_part.added",
      output_index: 0,
      item_id: REASONING_ITEM.id,
      summary_index: 0,
    },
    {
      type: "response.reasoning_summary_text.delta",
      output_index: 0,
      item_id: REASONING_ITEM.id,
      summary_index: 0,
      delta: THOUGHT,
    },
    { type: "response.output_item.done", output_index: 0, item: REASONING_ITEM },
    { type: "response.output_item.added", output_index: 1, item: opened },
    growth,
    { type: "response.output_item.done", output_index: 1, item: answer },
    { type: "response.completed", response: responseBody([REASONING_ITEM, answer]) },
  ];
  return events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`);
}

const WEATHER_TOOL: Anthropic.Tool = {
  name: "get_weather",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

Deno.test("Responses-upstream encrypted reasoning reaches a messages client as a thinking block and comes back to the upstream unchanged", async (t) => {
  const upstream = await startMockUpstream();
  const gateway = await startTestGateway(
    chatProvidersYaml([{ id: "oa-1", prefix: "oa", url: `${upstream.url}/v1`, apiType: "responses_native" }]),
  );
  const client = new Anthropic({ baseURL: gateway.url, apiKey: "anything", maxRetries: 0 });
  // A text answer has no tool call for the gateway's own token store to key the reasoning by: only what the
  // client carries can bring it back.
  const cases = [[false, CALL_ITEM], [true, CALL_ITEM], [false, TEXT_ITEM], [true, TEXT_ITEM]] as const;
  try {
    for (const [stream, answerItem] of cases) {
      await t.step(`${stream ? "stream" : "JSON"}, ${answerItem.type}`, async () => {
        upstream.requests.length = 0;
        upstream.script(
          stream ? { chunks: turnEvents(answerItem) } : { json: responseBody([REASONING_ITEM, answerItem]) },
          { json: FINAL },
        );
        const user: Anthropic.MessageParam = { role: "user", content: "Weather in Paris?" };
        const ask = {
          model: "oa/m1",
          max_tokens: 4096,
          thinking: { type: "enabled" as const, budget_tokens: 2048 },
          tools: [WEATHER_TOOL],
          messages: [user],
        };
        const answer = stream
          ? await client.messages.stream(ask).finalMessage()
          : await client.messages.create(ask);

        // The gateway asked the unstoring upstream for reasoning it can be handed back.
        const first = upstream.requests[0].body;
        assertEquals(first.store, false);
        assert(
          Array.isArray(first.include) && first.include.includes("reasoning.encrypted_content"),
          `include: ${JSON.stringify(first.include)}`,
        );

        const thinking = answer.content.find((b) => b.type === "thinking");
        if (thinking?.type !== "thinking") {
          throw new Error(`no thinking in ${JSON.stringify(answer.content)}`);
        }
        assertEquals(thinking.thinking, THOUGHT);
        assert(
          typeof thinking.signature === "string" && thinking.signature !== "",
          "the thinking block carries the upstream's reasoning in its signature",
        );
        const call = answer.content.find((b) => b.type === "tool_use");
        // Claude Code replays its history as it got it: the thinking block, the call, then the result.
        const next: Anthropic.MessageParam = call?.type === "tool_use"
          ? { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "sunny, 21C" }] }
          : { role: "user", content: "And tomorrow?" };
        await client.messages.create({
          ...ask,
          messages: [user, { role: "assistant", content: answer.content }, next],
        });

        const input = upstream.requests[1].body.input as Record<string, unknown>[];
        const reasoning = input.find((item) => item.type === "reasoning");
        assertEquals(reasoning?.encrypted_content, ENCRYPTED);
        // The item id rides along where the upstream's answer had it on the item itself.
        if (!stream) assertEquals(reasoning?.id, REASONING_ITEM.id);
        const answered = input.findIndex((item) => item.type === answerItem.type && item.role !== "user");
        assert(input.indexOf(reasoning!) < answered, "the reasoning item precedes the answer it led to");
      });
    }
  } finally {
    await gateway.stop();
    await upstream.close();
  }
});
