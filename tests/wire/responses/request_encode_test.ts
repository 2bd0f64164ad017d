import { assert, assertEquals } from "../../helpers/assert.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { decodeRequest, encodeRequest } from "../../../src/wire/responses/mod.ts";

/** A Codex-like turn: reasoning with encrypted content, parallel calls, their outputs and unknown fields. */
const CODEX_BODY = {
  model: "oa/gpt-5-codex",
  instructions: "You are Codex.",
  input: [
    { type: "message", role: "user", content: [{ type: "input_text", text: "list files twice" }] },
    {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "**Listing**" }],
      encrypted_content: "gAAAA-secret",
    },
    { type: "function_call", id: "fc_1", call_id: "call_1", name: "shell", arguments: '{"cmd":["ls"]}' },
    { type: "function_call", id: "fc_2", call_id: "call_2", name: "shell", arguments: '{"cmd":["ls","-a"]}' },
    { type: "function_call_output", call_id: "call_1", output: "a\nb" },
    { type: "function_call_output", call_id: "call_2", output: ".\n..\na\nb" },
    {
      type: "message",
      role: "assistant",
      id: "msg_9",
      content: [{ type: "output_text", text: "done", annotations: [] }],
    },
  ],
  tools: [
    { type: "function", name: "shell", description: "Run", parameters: { type: "object" }, strict: false },
    { type: "web_search" },
  ],
  tool_choice: "auto",
  parallel_tool_calls: true,
  reasoning: { effort: "medium", summary: "auto" },
  store: false,
  stream: true,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "0199-session",
  text: { verbosity: "low" },
  service_tier: "priority",
};

Deno.test("encodeRequest() reproduces a decoded Responses body, unknown fields included", () => {
  const { body, warnings } = encodeRequest(decodeRequest(CODEX_BODY, {}), "gpt-5-codex");
  assertEquals(warnings, []);
  assertEquals(body, { ...CODEX_BODY, model: "gpt-5-codex" });
});

Deno.test("encodeRequest() sends string input back as one user message item and store: false", () => {
  const { body } = encodeRequest(decodeRequest({ model: "m", input: "hi" }, {}), "up");
  assertEquals(body, {
    model: "up",
    input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
    store: false,
  });
});

Deno.test("encodeRequest() keeps a client's store: true", () => {
  const { body } = encodeRequest(decodeRequest({ model: "m", input: "hi", store: true }, {}), "up");
  assertEquals(body.store, true);
});

Deno.test("encodeRequest() caps call ids at 64 chars the same way for a call and its output", () => {
  const longId = "toolu_" + "x".repeat(80) + ".v1";
  const request: NeutralRequest = {
    model: "m",
    system: [{ kind: "text", text: "a" }, { kind: "text", text: "b" }],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "go" }] },
      { role: "assistant", parts: [{ kind: "toolCall", id: longId, name: "f", arguments: "{}" }] },
      {
        role: "tool",
        parts: [{ kind: "toolResult", callId: longId, content: [{ kind: "text", text: "ok" }] }],
      },
    ],
    tools: [{ name: "f", parameters: { type: "object" } }],
    params: {},
    stream: false,
    source: "messages",
  };
  const { body } = encodeRequest(request, "up");
  const input = body.input as Record<string, unknown>[];
  const callId = input[1].call_id as string;
  assert(callId.length <= 64, `call_id too long: ${callId.length}`);
  assertEquals(input[2].call_id, callId);
  assertEquals(body.instructions, "a\n\nb");
  assertEquals(body.tools, [{ type: "function", name: "f", parameters: { type: "object" } }]);
});

Deno.test("encodeRequest() replays OpenAI encrypted reasoning and drops other families with a warning", () => {
  const request: NeutralRequest = {
    model: "m",
    system: [],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "q" }] },
      {
        role: "assistant",
        parts: [
          { kind: "reasoning", text: "thought", signature: "sig", family: "anthropic" },
          { kind: "reasoning", text: "summary", redactedData: "ENC", family: "openai" },
          { kind: "reasoning", text: "plain", family: "openai" },
          { kind: "text", text: "answer" },
        ],
      },
    ],
    tools: [],
    toolChoice: { type: "auto" },
    params: { stop: ["\n"], seed: 7, topK: 3 },
    stream: false,
    source: "messages",
  };
  const { body, warnings } = encodeRequest(request, "up");
  assertEquals(body.input, [
    { type: "message", role: "user", content: [{ type: "input_text", text: "q" }] },
    { type: "reasoning", summary: [{ type: "summary_text", text: "summary" }], encrypted_content: "ENC" },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "answer" }] },
  ]);
  assertEquals(body.tools, undefined);
  assertEquals(body.tool_choice, undefined);
  // One warning per code: the first reasoning drop speaks for both.
  assertEquals(warnings.map((w) => [w.code, w.message]), [
    ["dropped_part:reasoning", 'reasoning from provider family "anthropic" dropped'],
    ["dropped_field:stop", "stop sequences cannot be expressed; dropped"],
    ["dropped_field:seed", "seed cannot be expressed; dropped"],
    ["dropped_field:top_k", "top_k cannot be expressed; dropped"],
  ]);
});

Deno.test("encodeRequest() keeps encrypted reasoning intact through decode → encode", () => {
  const body = {
    model: "m",
    input: [
      { role: "user", content: "q" },
      { type: "reasoning", id: "rs_7", summary: [], encrypted_content: "opaque==" },
      { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
    ],
  };
  const encoded = encodeRequest(decodeRequest(body, {}), "up").body;
  assertEquals((encoded.input as unknown[])[1], {
    type: "reasoning",
    id: "rs_7",
    summary: [],
    encrypted_content: "opaque==",
  });
});

Deno.test("encodeRequest() writes images as URLs or data URLs and tool choices in Responses form", () => {
  const request: NeutralRequest = {
    model: "m",
    system: [],
    messages: [{
      role: "user",
      parts: [
        { kind: "image", source: { type: "base64", mediaType: "image/jpeg", data: "QUJD" } },
        { kind: "image", source: { type: "url", url: "https://x/p.png" }, detail: "low" },
      ],
    }],
    tools: [{ name: "f", description: "d", parameters: {} }],
    toolChoice: { type: "tool", name: "f" },
    params: { maxTokens: 9, temperature: 1, topP: 0.5 },
    reasoning: { budgetTokens: 4000, includeThoughts: true },
    stream: true,
    source: "chat_completions",
    extra: { format: "chat_completions", fields: { logprobs: true } },
  };
  const { body } = encodeRequest(request, "up");
  assertEquals(body, {
    model: "up",
    input: [{
      type: "message",
      role: "user",
      content: [
        { type: "input_image", image_url: "data:image/jpeg;base64,QUJD", detail: "auto" },
        { type: "input_image", image_url: "https://x/p.png", detail: "low" },
      ],
    }],
    tools: [{ type: "function", name: "f", description: "d", parameters: {} }],
    tool_choice: { type: "function", name: "f" },
    max_output_tokens: 9,
    temperature: 1,
    top_p: 0.5,
    reasoning: { effort: "medium", summary: "auto" },
    stream: true,
    store: false,
    // Reasoning is not stored upstream, so it is asked for encrypted to send back next turn.
    include: ["reasoning.encrypted_content"],
  });
});

Deno.test("encodeRequest() puts hosted and custom tool items back in place for a Responses upstream", () => {
  const body = {
    model: "m",
    input: [
      { role: "user", content: "search, then patch" },
      { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "deno" } },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "found it" }] },
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: "*** Begin Patch" },
      { type: "custom_tool_call_output", call_id: "c1", output: "ok" },
      { type: "function_call", call_id: "c2", name: "shell", arguments: "{}" },
      { type: "function_call_output", call_id: "c2", output: "done" },
      { role: "user", content: "thanks" },
    ],
  };
  const decoded = decodeRequest(body, {});
  // The neutral turns other formats see hold only what they can express.
  assertEquals(decoded.messages.map((m) => `${m.role}:${m.parts.map((p) => p.kind).join(",")}`), [
    "user:text",
    "assistant:text,toolCall",
    "tool:toolResult",
    "user:text",
  ]);
  assertEquals(
    encodeRequest(decoded, "m").body.input,
    body.input.map((item) =>
      "role" in item && item.type === undefined
        ? { type: "message", role: item.role, content: [{ type: "input_text", text: item.content }] }
        : item
    ),
  );
});
