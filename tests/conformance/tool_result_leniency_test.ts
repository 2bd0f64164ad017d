/**
 * Tool results are matched the way each client format matches them. Gemini pairs function responses
 * with calls by name and order, not id: a generate-content client (qwen-code in its Gemini mode) may send
 * ids the gateway never issued, no ids at all, or parallel responses in another order. Through every
 * upstream format the gateway accepts what the real API accepts and repairs the ids, so the upstream sees
 * each result paired with its own call.
 */
import type { Part, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { assertEquals } from "../helpers/assert.ts";
import { formatOfPath, startFormatUpstream } from "../helpers/format_upstream.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { scenarioResponse } from "../fixtures/neutral_scenarios.ts";

const UPSTREAMS = [
  { prefix: "up_chat", apiType: "chat_compat", path: "/v1" },
  { prefix: "up_messages", apiType: "messages_native", path: "" },
  { prefix: "up_generate", apiType: "generate_native", path: "" },
  { prefix: "up_responses", apiType: "responses_native", path: "/v1" },
] as const;

const TOOLS = [{
  functionDeclarations: ["get_weather", "get_time"].map((name) => ({
    name,
    parameters: { type: "object", properties: { city: { type: "string" } } },
  })),
}];

type Call = { name: string; id?: string; city: string };
type Answer = { name: string; id?: string; value: string };

/** A generate-content conversation: one model turn of calls, then one user turn of responses. */
function conversation(calls: Call[], answers: Answer[]) {
  return {
    contents: [
      { role: "user", parts: [{ text: "Weather and time in Paris and Rome?" }] },
      {
        role: "model",
        parts: calls.map((c) => ({
          functionCall: { name: c.name, args: { city: c.city }, ...(c.id ? { id: c.id } : {}) },
        })),
      },
      {
        role: "user",
        parts: answers.map((a) => ({
          functionResponse: { name: a.name, response: { value: a.value }, ...(a.id ? { id: a.id } : {}) },
        })),
      },
    ],
    tools: TOOLS,
  };
}

const CASES: { name: string; calls: Call[]; answers: Answer[]; pairs: [string, string][] }[] = [
  {
    name: "a function response with an id the gateway never issued",
    calls: [{ name: "get_weather", id: "call_gw_1", city: "Paris" }],
    answers: [{ name: "get_weather", id: "qwen-tool-7f3a", value: "18C" }],
    pairs: [["Paris", "18C"]],
  },
  {
    name: "calls and responses by name only (no ids anywhere)",
    calls: [{ name: "get_weather", city: "Paris" }, { name: "get_weather", city: "Rome" }],
    answers: [{ name: "get_weather", value: "18C" }, { name: "get_weather", value: "21C" }],
    pairs: [["Paris", "18C"], ["Rome", "21C"]],
  },
  {
    name: "parallel responses in another order than the calls, with foreign ids",
    calls: [
      { name: "get_weather", id: "a1", city: "Paris" },
      { name: "get_time", id: "a2", city: "Rome" },
    ],
    answers: [
      { name: "get_time", id: "x-2", value: "14:00" },
      { name: "get_weather", id: "x-1", value: "18C" },
    ],
    pairs: [["Rome", "14:00"], ["Paris", "18C"]],
  },
];

/** City of the call each result answers, and the result's text, as the upstream received them. */
function upstreamPairs(format: WireFormat, body: Record<string, unknown>): [string, string][] {
  const decoded = codecFor(format).decodeRequest(body, { pathModel: "x/text", endpoint: "chat" });
  const parts = decoded.messages.flatMap((m) => m.parts);
  const calls = new Map<string, string>();
  for (const p of parts) if (p.kind === "toolCall") calls.set(p.id, JSON.parse(p.arguments).city);
  return parts.filter((p): p is Extract<Part, { kind: "toolResult" }> => p.kind === "toolResult").map((r) => {
    const text = r.content.map((c) => (c.kind === "text" ? c.text : "")).join("");
    return [calls.get(r.callId) ?? `unpaired ${r.callId}`, JSON.parse(text).value ?? text];
  });
}

Deno.test("generate-content clients: function responses with foreign ids, by name only and in parallel reach every upstream paired", async (t) => {
  const mock = await startFormatUpstream(() => ({ kind: "answer", response: scenarioResponse("text") }));
  const yaml = "providers:\n" +
    UPSTREAMS.map((u) =>
      `  - id: ${u.prefix}-1\n    prefix: ${u.prefix}\n    api_type: ${u.apiType}\n    base_url: ${mock.url}${u.path}\n    api_key: k\n    models: [text]\n`
    ).join("");
  const gw = await startTestGateway(yaml);
  try {
    for (const upstream of UPSTREAMS) {
      for (const c of CASES) {
        await t.step(`${upstream.prefix}: ${c.name}`, async () => {
          const before = mock.requests.length;
          const response = await fetch(`${gw.url}/v1beta/models/${upstream.prefix}/text:generateContent`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(conversation(c.calls, c.answers)),
          });
          const text = await response.text();
          assertEquals(response.status, 200, text.slice(0, 300));
          const sent = mock.requests[before];
          assertEquals(upstreamPairs(formatOfPath(sent.path), sent.body), c.pairs);
        });
      }
    }
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("local-runner clients: a tool result with an id no call carries is paired by name", async () => {
  const mock = await startFormatUpstream(() => ({ kind: "answer", response: scenarioResponse("text") }));
  const gw = await startTestGateway(
    `providers:\n  - id: m-1\n    prefix: up_messages\n    api_type: messages_native\n    base_url: ${mock.url}\n    api_key: k\n    models: [text]\n`,
  );
  try {
    const response = await fetch(`${gw.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "up_messages/text",
        stream: false,
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
          },
          {
            role: "tool",
            tool_call_id: "client-made-up-id",
            tool_name: "get_weather",
            content: '{"value":"18C"}',
          },
        ],
      }),
    });
    const text = await response.text();
    assertEquals(response.status, 200, text.slice(0, 300));
    assertEquals(upstreamPairs("messages", mock.requests[0].body), [["Paris", "18C"]]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
