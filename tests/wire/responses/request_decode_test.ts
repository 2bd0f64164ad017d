import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { decodeRequest } from "../../../src/wire/responses/mod.ts";

const decode = (body: unknown) => decodeRequest(body, {});

function rejects(body: unknown, message: string): void {
  const error = assertThrows(() => decode(body), GatewayError, message);
  assertEquals([error.status, error.kind], [400, "invalid_request"]);
}

Deno.test("decodeRequest() turns string input into one user message and instructions into system", () => {
  const req = decode({ model: "oa/gpt-5", input: "hello", instructions: "be brief", stream: true });
  assertEquals(req.model, "oa/gpt-5");
  assertEquals(req.system, [{ kind: "text", text: "be brief" }]);
  assertEquals(req.messages, [{ role: "user", parts: [{ kind: "text", text: "hello" }] }]);
  assertEquals(req.stream, true);
  assertEquals(req.source, "responses");
  assertEquals(req.extra, undefined);
});

Deno.test("decodeRequest() reads message items, role-only items and system/developer messages", () => {
  const req = decode({
    model: "m",
    input: [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "dev rules" }] },
      { role: "system", content: "sys rules" },
      {
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", image_url: "https://x/y.png", detail: "high" },
          { type: "input_image", image_url: "data:image/png;base64,AAAA" },
        ],
      },
      {
        type: "message",
        role: "assistant",
        id: "msg_1",
        status: "completed",
        content: [{ type: "output_text", text: "a cat", annotations: [] }, {
          type: "refusal",
          refusal: "no",
        }],
      },
    ],
  });
  assertEquals(req.system.map((p) => p.text), ["dev rules", "sys rules"]);
  assertEquals(req.messages, [
    {
      role: "user",
      parts: [
        { kind: "text", text: "look" },
        { kind: "image", source: { type: "url", url: "https://x/y.png" }, detail: "high" },
        { kind: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
      ],
    },
    {
      role: "assistant",
      extra: { format: "responses", fields: { id: "msg_1", status: "completed" } },
      parts: [
        { kind: "text", text: "a cat", extra: { format: "responses", fields: { annotations: [] } } },
        { kind: "text", text: "no", extra: { format: "responses", fields: { type: "refusal" } } },
      ],
    },
  ]);
});

Deno.test("decodeRequest() groups parallel function calls after an assistant message into one turn", () => {
  const req = decode({
    model: "m",
    input: [
      { role: "user", content: "weather in two cities" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "ENC" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "checking" }] },
      { type: "function_call", call_id: "call_a", name: "weather", arguments: '{"city":"Oslo"}', id: "fc_a" },
      { type: "function_call", call_id: "call_b", name: "weather", arguments: '{"city":"Rome"}' },
      { type: "function_call_output", call_id: "call_a", output: "cold" },
      {
        type: "function_call_output",
        call_id: "call_b",
        output: [{ type: "input_text", text: "warm" }, { type: "input_image", image_url: "https://i/r.png" }],
      },
    ],
  });
  assertEquals(req.messages.map((m) => m.role), ["user", "assistant", "tool"]);
  assertEquals(req.messages[1].parts.map((p) => p.kind), ["reasoning", "text", "toolCall", "toolCall"]);
  assertEquals(req.messages[1].parts[0], {
    kind: "reasoning",
    text: "",
    family: "openai",
    redactedData: "ENC",
    extra: { format: "responses", fields: { id: "rs_1", summary: [] } },
  });
  assertEquals(req.messages[1].parts[2], {
    kind: "toolCall",
    id: "call_a",
    name: "weather",
    arguments: '{"city":"Oslo"}',
    extra: { format: "responses", fields: { id: "fc_a" } },
  });
  assertEquals(req.messages[2].parts, [
    { kind: "toolResult", callId: "call_a", content: [{ kind: "text", text: "cold" }] },
    {
      kind: "toolResult",
      callId: "call_b",
      content: [{ kind: "text", text: "warm" }, {
        kind: "image",
        source: { type: "url", url: "https://i/r.png" },
      }],
    },
  ]);
});

Deno.test("decodeRequest() starts a new assistant turn after tool results", () => {
  const req = decode({
    model: "m",
    input: [
      { role: "user", content: "go" },
      { type: "function_call", call_id: "c1", name: "a", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "1" },
      { type: "function_call", call_id: "c2", name: "b", arguments: "{}" },
      { type: "function_call_output", call_id: "c2", output: "2" },
    ],
  });
  assertEquals(req.messages.map((m) => `${m.role}:${m.parts.length}`), [
    "user:1",
    "assistant:1",
    "tool:1",
    "assistant:1",
    "tool:1",
  ]);
});

Deno.test("decodeRequest() joins reasoning summary parts with a blank line", () => {
  const req = decode({
    model: "m",
    input: [{
      type: "reasoning",
      id: "rs_2",
      summary: [{ type: "summary_text", text: "one" }, { type: "summary_text", text: "two" }],
    }],
  });
  const part = req.messages[0].parts[0];
  assertEquals(part.kind === "reasoning" ? part.text : "", "one\n\ntwo");
});

Deno.test("decodeRequest() maps tools, tool_choice, params and reasoning and keeps the rest in extra", () => {
  const req = decode({
    model: "m",
    input: "hi",
    tools: [
      { type: "function", name: "shell", description: "run", parameters: { type: "object" }, strict: false },
      { type: "web_search" },
      { type: "custom", name: "apply_patch", format: { type: "grammar" } },
    ],
    tool_choice: { type: "function", name: "shell" },
    max_output_tokens: 500,
    temperature: 0.2,
    top_p: 0.9,
    reasoning: { effort: "high", summary: "auto" },
    store: false,
    previous_response_id: "resp_old",
    include: ["reasoning.encrypted_content"],
    parallel_tool_calls: true,
    prompt_cache_key: "sess-1",
    text: { verbosity: "low" },
  });
  assertEquals(req.tools, [{
    name: "shell",
    description: "run",
    parameters: { type: "object" },
    extra: { format: "responses", fields: { strict: false } },
  }]);
  assertEquals(req.toolChoice, { type: "tool", name: "shell" });
  assertEquals(req.params, { maxTokens: 500, temperature: 0.2, topP: 0.9 });
  assertEquals(req.reasoning, { effort: "high", includeThoughts: true });
  assertEquals(req.extra, {
    format: "responses",
    fields: {
      reasoning: { effort: "high", summary: "auto" },
      store: false,
      previous_response_id: "resp_old",
      include: ["reasoning.encrypted_content"],
      parallel_tool_calls: true,
      prompt_cache_key: "sess-1",
      text: { verbosity: "low" },
      tools: [{ type: "web_search" }, { type: "custom", name: "apply_patch", format: { type: "grammar" } }],
    },
  });
});

Deno.test("decodeRequest() keeps tool_choice forms it cannot map in extra", () => {
  const choice = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "a" }] };
  const req = decode({ model: "m", input: "x", tool_choice: choice });
  assertEquals(req.toolChoice, undefined);
  assertEquals(req.extra?.fields.tool_choice, choice);
  assertEquals(decode({ model: "m", input: "x", tool_choice: "required" }).toolChoice, { type: "required" });
});

Deno.test("decodeRequest() rejects invalid input with the failing path", () => {
  rejects("nope", "body: must be a JSON object");
  rejects({ input: "x" }, "model: is required");
  rejects({ model: "m" }, "input: is required");
  const items = [{ role: "user", content: "a" }, { role: "user", content: "b" }, {
    role: "user",
    content: "c",
  }];
  rejects(
    { model: "m", input: [...items, { type: "computer_call" }] },
    'input[3].type: unknown item type "computer_call"',
  );
  rejects(
    { model: "m", input: [{ role: "user", content: [{ type: "input_image", file_id: "f1" }] }] },
    "not supported",
  );
  rejects(
    { model: "m", input: [{ role: "user", content: [{ type: "video", url: "x" }] }] },
    "input[0].content[0].type",
  );
  rejects({ model: "m", input: [{ type: "function_call", name: "a", arguments: "{}" }] }, "input[0].call_id");
  rejects({ model: "m", input: [{ role: "robot", content: "x" }] }, "input[0].role");
  rejects({ model: "m", input: "x", tools: [{ type: "function" }] }, "tools[0].name");
  rejects({ model: "m", input: "x", tool_choice: "sometimes" }, "tool_choice");
  rejects({ model: "m", input: "x", reasoning: { effort: "max" } }, "reasoning.effort");
  // The response store resolves references before decoding; the codec itself cannot, and says so.
  rejects({ model: "m", input: [{ type: "item_reference", id: "x" }] }, "input[0].id: names no stored item");
});
