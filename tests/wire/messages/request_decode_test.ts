import { GatewayError } from "../../../src/model/mod.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { messagesCodec } from "../../../src/wire/messages/mod.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const decode = (body: unknown): NeutralRequest => messagesCodec.decodeRequest(body, {});

function decodeError(body: unknown, includes: string): GatewayError {
  const error = assertThrows(() => decode(body), GatewayError, includes);
  assertEquals(error.status, 400);
  assertEquals(error.kind, "invalid_request");
  return error;
}

const base = { model: "anth/claude-sonnet-4-5", max_tokens: 1024 };

Deno.test("decodeRequest() maps system blocks with cache_control to system text parts", () => {
  const request = decode({
    ...base,
    system: [
      { type: "text", text: "You are Claude Code." },
      { type: "text", text: "Project rules", cache_control: { type: "ephemeral", ttl: "1h" } },
    ],
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(request.system, [
    { kind: "text", text: "You are Claude Code." },
    { kind: "text", text: "Project rules", cacheControl: { type: "ephemeral", ttl: "1h" } },
  ]);
  assertEquals(request.messages, [{ role: "user", parts: [{ kind: "text", text: "hi" }] }]);
  assertEquals(request.source, "messages");
  assertEquals(request.stream, false);
  assertEquals(request.params, { maxTokens: 1024 });
});

Deno.test("decodeRequest() maps every content block kind", () => {
  const request = decode({
    ...base,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "look", cache_control: { type: "ephemeral" } },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "image", source: { type: "url", url: "https://x.test/a.png" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig-1" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "calling" },
          { type: "tool_use", id: "toolu_01", name: "read", input: { path: "a.ts" } },
        ],
      },
    ],
  });
  assertEquals(request.messages[0].parts, [
    { kind: "text", text: "look", cacheControl: { type: "ephemeral" } },
    { kind: "image", source: { type: "base64", mediaType: "image/png", data: "iVBOR" } },
    { kind: "image", source: { type: "url", url: "https://x.test/a.png" } },
  ]);
  assertEquals(request.messages[1].parts, [
    { kind: "reasoning", text: "hmm", signature: "sig-1", family: "anthropic" },
    { kind: "reasoning", text: "", redactedData: "opaque", family: "anthropic" },
    { kind: "text", text: "calling" },
    { kind: "toolCall", id: "toolu_01", name: "read", arguments: '{"path":"a.ts"}' },
  ]);
});

Deno.test("decodeRequest() gives an unsigned thinking block no family, so it is never replayed", () => {
  const request = decode({
    ...base,
    messages: [
      { role: "user", content: "q" },
      { role: "assistant", content: [{ type: "thinking", thinking: "shown earlier", signature: "" }] },
    ],
  });
  assertEquals(request.messages[1].parts, [{ kind: "reasoning", text: "shown earlier" }]);
});

Deno.test("decodeRequest() splits tool results into a tool message before the user's remaining parts", () => {
  const request = decode({
    ...base,
    messages: [
      { role: "user", content: "run both" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_a", name: "ls", input: {} },
          { type: "tool_use", id: "toolu_b", name: "cat", input: { f: "x" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "a.ts\nb.ts" },
          { type: "text", text: "and also" },
          {
            type: "tool_result",
            tool_use_id: "toolu_b",
            is_error: true,
            content: [{ type: "text", text: "no such file" }, {
              type: "image",
              source: { type: "url", url: "https://x.test/s.png" },
            }],
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ],
  });
  assertEquals(request.messages.map((m) => m.role), ["user", "assistant", "tool", "user"]);
  assertEquals(request.messages[2].parts, [
    { kind: "toolResult", callId: "toolu_a", content: [{ kind: "text", text: "a.ts\nb.ts" }] },
    {
      kind: "toolResult",
      callId: "toolu_b",
      content: [
        { kind: "text", text: "no such file" },
        { kind: "image", source: { type: "url", url: "https://x.test/s.png" } },
      ],
      isError: true,
      cacheControl: { type: "ephemeral" },
    },
  ]);
  assertEquals(request.messages[3].parts, [{ kind: "text", text: "and also" }]);
});

Deno.test("decodeRequest() maps tools, tool_choice and sampling parameters", () => {
  const request = decode({
    ...base,
    messages: [{ role: "user", content: "x" }],
    tools: [
      {
        name: "read",
        description: "Read a file",
        input_schema: { type: "object", properties: { path: { type: "string" } } },
        cache_control: { type: "ephemeral" },
      },
    ],
    tool_choice: { type: "any", disable_parallel_tool_use: true },
    temperature: 0.2,
    top_p: 0.9,
    top_k: 40,
    stop_sequences: ["END"],
    stream: true,
  });
  assertEquals(request.tools, [{
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } } },
    cacheControl: { type: "ephemeral" },
  }]);
  assertEquals(request.toolChoice, { type: "required" });
  assertEquals(request.params, { maxTokens: 1024, temperature: 0.2, topP: 0.9, topK: 40, stop: ["END"] });
  assertEquals(request.stream, true);
  assertEquals(request.extra, {
    format: "messages",
    fields: { tool_choice: { disable_parallel_tool_use: true } },
  });
});

Deno.test("decodeRequest() keeps server tools and unknown fields in extra instead of dropping them", () => {
  const webSearch = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
  const request = decode({
    ...base,
    messages: [{ role: "user", content: "news?" }],
    tools: [{ name: "f", input_schema: { type: "object" } }, webSearch],
    metadata: { user_id: "u-1" },
    service_tier: "auto",
  });
  assertEquals(request.tools.map((t) => t.name), ["f"]);
  assertEquals(request.extra, {
    format: "messages",
    fields: { metadata: { user_id: "u-1" }, service_tier: "auto", tools: [webSearch] },
  });
});

Deno.test("decodeRequest() maps thinking budgets and adaptive effort to the reasoning intent", () => {
  const messages = [{ role: "user", content: "x" }];
  assertEquals(
    decode({ ...base, messages, thinking: { type: "enabled", budget_tokens: 2048 } }).reasoning,
    { budgetTokens: 2048 },
  );
  assertEquals(
    decode({ ...base, messages, thinking: { type: "adaptive" }, output_config: { effort: "low" } }).reasoning,
    { effort: "low" },
  );
  assertEquals(
    decode({ ...base, messages, thinking: { type: "adaptive" }, output_config: { effort: "max" } }).reasoning,
    { effort: "xhigh" },
  );
  assertEquals(decode({ ...base, messages, thinking: { type: "adaptive" } }).reasoning, { effort: "high" });
  assertEquals(decode({ ...base, messages, thinking: { type: "disabled" } }).reasoning, { effort: "none" });
  assertEquals(decode({ ...base, messages, output_config: { effort: "low" } }).reasoning, undefined);
});

Deno.test("decodeRequest() hoists system-role messages into the system text", () => {
  const request = decode({
    ...base,
    system: "top",
    messages: [{ role: "system", content: "late rule" }, { role: "user", content: "hi" }],
  });
  assertEquals(request.system.map((p) => p.text), ["top", "late rule"]);
  assertEquals(request.messages.length, 1);
});

Deno.test("decodeRequest() requires max_tokens and a non-empty messages list", () => {
  decodeError({ model: "m", messages: [{ role: "user", content: "x" }] }, "max_tokens: is required");
  decodeError({ ...base, messages: [] }, "messages: must contain at least one message");
  decodeError({ max_tokens: 5, messages: [{ role: "user", content: "x" }] }, "model: is required");
  decodeError("nope", "body: must be a JSON object");
});

Deno.test("decodeRequest() names the path of a bad or unknown block", () => {
  decodeError(
    { ...base, messages: [{ role: "user", content: [{ type: "text", text: "a" }, { type: "document" }] }] },
    'messages[0].content[1].type: unsupported content block type "document"',
  );
  decodeError(
    { ...base, messages: [{ role: "user", content: [{ type: "text", text: 5 }] }] },
    "messages[0].content[0].text: must be a string",
  );
  decodeError(
    {
      ...base,
      messages: [{ role: "user", content: [{ type: "image", source: { type: "file", file_id: "f" } }] }],
    },
    'messages[0].content[0].source.type: unsupported image source type "file"',
  );
  decodeError(
    { ...base, messages: [{ role: "user", content: 5 }] },
    "messages[0].content: must be a string or",
  );
  decodeError(
    { ...base, messages: [{ role: "bot", content: "x" }] },
    'messages[0].role: must be "user" or "assistant", not "bot"',
  );
  decodeError(
    { ...base, messages: [{ role: "user", content: "x" }], tools: [{ name: "f" }] },
    "tools[0].input_schema: is required",
  );
  decodeError(
    { ...base, messages: [{ role: "user", content: "x" }], tool_choice: { type: "tool" } },
    "tool_choice.name: is required",
  );
  decodeError(
    { ...base, messages: [{ role: "user", content: "x" }], thinking: { type: "enabled" } },
    "thinking.budget_tokens: is required",
  );
  decodeError(
    {
      ...base,
      messages: [{ role: "assistant", content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] }],
    },
    "messages[0].content[0]: tool_result blocks belong in user messages",
  );
});
