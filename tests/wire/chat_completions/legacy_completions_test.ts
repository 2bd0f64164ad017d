import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { codecFor } from "../../../src/wire/mod.ts";
import type { GatewayError } from "../../../src/model/mod.ts";

const legacy = codecFor("chat_completions", "completions");

Deno.test("legacy decodeRequest(): what a chat turn cannot carry is a warning each, and never an extra field", () => {
  const request = legacy.decodeRequest({
    model: "p/m",
    prompt: "Hi",
    suffix: "END",
    echo: true,
    n: 3,
    best_of: 4,
    logprobs: 1,
    tools: [{ type: "function", function: { name: "f" } }],
    user: "u-1",
  }, {});
  assertEquals(
    request.warnings?.map((w) => w.code),
    [
      "dropped_field:suffix",
      "dropped_field:logprobs",
      "dropped_field:echo",
      "dropped_field:n",
      "dropped_field:best_of",
      "dropped_field:tools",
    ],
  );
  assertEquals(request.extra, { format: "chat_completions", fields: { user: "u-1" } });
  assertEquals(request.tools, []);
});

Deno.test("legacy decodeRequest(): a plain prompt has no warnings and maps stop, max_tokens and stream", () => {
  const request = legacy.decodeRequest(
    { model: "p/m", prompt: ["Hi"], stop: "\n", max_tokens: 7, stream: true, n: 1, echo: false },
    {},
  );
  assertEquals(request.warnings, undefined);
  assertEquals(request.params, { maxTokens: 7, stop: ["\n"] });
  assertEquals(request.stream, true);
  assertEquals(request.messages, [{ role: "user", parts: [{ kind: "text", text: "Hi" }] }]);
});

Deno.test("legacy decodeRequest(): a wrong field type is a 400 naming the field", () => {
  const error = assertThrows(() => legacy.decodeRequest({ model: "p/m", prompt: "Hi", max_tokens: "x" }, {}));
  assertEquals((error as GatewayError).status, 400);
  assertEquals((error as GatewayError).message.startsWith("max_tokens:"), true);
});

Deno.test("legacy encodeResponse(): text parts only, a cmpl- id and the client's model", () => {
  const body = legacy.encodeResponse({
    id: "chatcmpl-abc123",
    model: "upstream",
    parts: [{ kind: "reasoning", text: "think" }, { kind: "text", text: "Hello" }],
    finish: { unified: "length", raw: "max_tokens" },
    usage: { inputTotal: 3, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 },
  }, { requestModel: "p/m", now: 100 }) as Record<string, unknown>;
  assertEquals(body.id, "cmpl-abc123");
  assertEquals(body.model, "p/m");
  assertEquals(body.choices, [{ text: "Hello", index: 0, logprobs: null, finish_reason: "length" }]);
});
