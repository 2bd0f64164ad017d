import { assertEquals, assertThrows } from "../helpers/assert.ts";
import {
  estimateRequestTokens,
  estimateTokens,
  IMAGE_TOKENS,
  loadTokenizer,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  tokenizerLoaded,
} from "../../src/accounting/mod.ts";
import type { NeutralRequest } from "../../src/model/request.ts";

function request(overrides: Partial<NeutralRequest>): NeutralRequest {
  return {
    model: "p/m",
    system: [],
    messages: [],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
    ...overrides,
  };
}

// First in the file: nothing has loaded the tokenizer in this isolate yet.
Deno.test("the tokenizer loads on first need; an estimate before that is an error, not a guess", async () => {
  assertEquals(tokenizerLoaded(), false);
  assertEquals(estimateTokens(""), 0);
  assertThrows(() => estimateTokens("hello"), Error, "before the tokenizer was loaded");
  await Promise.all([loadTokenizer(), loadTokenizer()]);
  assertEquals(tokenizerLoaded(), true);
});

Deno.test("estimateTokens() counts 'hello world' as 2 tokens and empty text as 0", () => {
  assertEquals(estimateTokens("hello world"), 2);
  assertEquals(estimateTokens(""), 0);
});

Deno.test("estimateTokens() counts special-token text as plain text instead of throwing", () => {
  assertEquals(estimateTokens("a <|endoftext|> b") > 3, true);
});

Deno.test("estimateRequestTokens() adds system, messages with overhead, images and tool calls", async () => {
  const r = request({
    system: [{ kind: "text", text: "hello world" }],
    messages: [
      {
        role: "user",
        parts: [{ kind: "text", text: "hello world" }, { kind: "image", source: { type: "url", url: "u" } }],
      },
      { role: "assistant", parts: [{ kind: "toolCall", id: "c1", name: "get", arguments: '{"a":1}' }] },
      {
        role: "tool",
        parts: [{ kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "hello world" }] }],
      },
    ],
  });
  const expected = REPLY_PRIMING_TOKENS +
    (2 + MESSAGE_OVERHEAD_TOKENS) +
    (2 + IMAGE_TOKENS + MESSAGE_OVERHEAD_TOKENS) +
    (estimateTokens("get") + estimateTokens('{"a":1}') + MESSAGE_OVERHEAD_TOKENS) +
    (2 + MESSAGE_OVERHEAD_TOKENS);
  assertEquals(await estimateRequestTokens(r), expected);
});

Deno.test("estimateRequestTokens() counts tool definitions as their JSON", async () => {
  const bare = await estimateRequestTokens(request({}));
  const withTool = await estimateRequestTokens(request({
    tools: [{ name: "lookup", description: "Find a thing", parameters: { type: "object", properties: {} } }],
  }));
  assertEquals(bare, REPLY_PRIMING_TOKENS);
  assertEquals(withTool - bare > 5, true);
});
