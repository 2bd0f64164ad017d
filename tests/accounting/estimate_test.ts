import { assertEquals, assertThrows } from "../helpers/assert.ts";
import {
  countTextTokens,
  estimateRequestTokens,
  estimateTokens,
  EXACT_CHARS,
  IMAGE_TOKENS,
  loadTokenizer,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  timePacer,
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

Deno.test("countTextTokens() answers at once when a slice suffices, else pauses between pieces and gives the same count", async () => {
  let pauses = 0;
  const always = { due: () => true, pause: () => (pauses++, Promise.resolve()) };
  assertEquals(countTextTokens(["hello world"], always), 2);
  assertEquals(pauses, 0, "a text of one piece is counted before a pause is asked for");
  const text = "hello world ".repeat(1000);
  const counted = countTextTokens([text], always);
  assertEquals(counted instanceof Promise, true);
  assertEquals(await counted, estimateTokens(text));
  // Pieces are at most 256 characters; one pause between every two.
  assertEquals(pauses >= text.length / 256 - 1, true, `${pauses} pauses for ${text.length} characters`);
});

Deno.test("countTextTokens() lets a timer that was due run before a long count finishes", async () => {
  const order: string[] = [];
  setTimeout(() => order.push("timer"), 0);
  const text = "lorem ipsum dolor sit amet ".repeat(20_000);
  // A 0 ms slice pauses after every piece: the point is the order, not the slice length.
  await Promise.resolve(countTextTokens([text], timePacer(undefined, 0))).then(() => order.push("count"));
  assertEquals(order, ["timer", "count"]);
});

Deno.test("estimateTokens() counts EXACT_CHARS exactly and extrapolates the rest at the counted ratio", () => {
  const unit = "hello world ";
  const tokensPerUnit = 2;
  const units = Math.ceil((4 * EXACT_CHARS) / unit.length);
  const estimate = estimateTokens(unit.repeat(units));
  const exact = units * tokensPerUnit;
  assertEquals(Math.abs(estimate - exact) / exact < 0.01, true, `${estimate} vs ${exact}`);
});
