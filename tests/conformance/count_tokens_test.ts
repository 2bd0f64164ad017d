/**
 * `POST /v1/messages/count_tokens` counts every block type the model reads, checked against the reference
 * tokenizer (gpt-tokenizer, o200k_base): adding a block adds exactly its text's tokens (or an image's
 * billed size). A body that cannot be counted is an error in the messages format, never a zero; an
 * upstream with its own counting endpoint is asked; a 256 KB count does not hold up /v1/health.
 */
import { countTokens } from "gpt-tokenizer";
import { assert, assertEquals } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { healthAnswersDuringCount } from "../helpers/health_probes.ts";

type Block = Record<string, unknown>;
type Body = {
  model: string;
  system?: unknown;
  tools?: unknown[];
  messages: { role: string; content: Block[] }[];
};

/** A PNG header (signature + IHDR) of the given size, base64: enough for the billed-size rule. */
function pngOf(width: number, height: number): string {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return btoa(String.fromCharCode(...bytes));
}

function base(model: string): Body {
  return {
    model,
    messages: [
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      { role: "assistant", content: [{ type: "text", text: "Let me look." }] },
      { role: "user", content: [{ type: "text", text: "Go on." }] },
    ],
  };
}

const TOOL = {
  name: "get_weather",
  description: "Current weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } } },
};
const THINKING = "The user wants the weather in Paris, so I should call the tool.";
const DOC_TEXT = "Paris is the capital of France. It has a mild oceanic climate.";

/** Each block type: how it changes the base body, and the tokens that change must add. */
const CASES: { name: string; change: (b: Body) => void; tokens: number }[] = [
  {
    name: "text",
    change: (b) => b.messages[2].content.push({ type: "text", text: "Please be brief about it." }),
    tokens: countTokens("Please be brief about it."),
  },
  {
    name: "image (billed by its size: 800×600 → 640 tokens)",
    change: (b) =>
      b.messages[2].content.push({
        type: "image",
        source: { type: "base64", media_type: "image/png", data: pngOf(800, 600) },
      }),
    tokens: 640,
  },
  {
    // Long edge to 1568 (1568×1176), then area to 1.15 MP (1238×929): ceil(1,150,102 / 750).
    name: "image over the size cap (4000×3000 scaled to fit)",
    change: (b) =>
      b.messages[2].content.push({
        type: "image",
        source: { type: "base64", media_type: "image/png", data: pngOf(4000, 3000) },
      }),
    tokens: 1534,
  },
  {
    name: "tool use and tool result",
    change: (b) => {
      b.messages[1].content.push({
        type: "tool_use",
        id: "toolu_1",
        name: "get_weather",
        input: { city: "Paris" },
      });
      b.messages[2].content.unshift({
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: "18C and sunny",
      });
    },
    tokens: countTokens("get_weather") + countTokens('{"city":"Paris"}') + countTokens("18C and sunny"),
  },
  {
    name: "tool result with text blocks",
    change: (b) => {
      b.messages[1].content.push({ type: "tool_use", id: "toolu_2", name: "get_weather", input: {} });
      b.messages[2].content.unshift({
        type: "tool_result",
        tool_use_id: "toolu_2",
        content: [{ type: "text", text: "18C" }, { type: "text", text: "sunny all day" }],
      });
    },
    tokens: countTokens("get_weather") + countTokens("{}") + countTokens("18C") +
      countTokens("sunny all day"),
  },
  {
    name: "thinking in the final assistant turn",
    change: (b) => {
      b.messages.pop();
      b.messages[1].content.unshift({ type: "thinking", thinking: THINKING, signature: "sig" });
    },
    tokens: countTokens(THINKING) - countTokens("Go on.") - 4,
  },
  {
    name: "thinking of the turn in progress (answered by tool results only)",
    change: (b) => {
      b.messages[1].content.unshift({ type: "thinking", thinking: THINKING, signature: "sig" });
      b.messages[1].content.push({ type: "tool_use", id: "toolu_3", name: "get_weather", input: {} });
      b.messages[2].content = [{ type: "tool_result", tool_use_id: "toolu_3", content: "18C" }];
    },
    tokens: countTokens(THINKING) + countTokens("get_weather") + countTokens("{}") + countTokens("18C") -
      countTokens("Go on."),
  },
  {
    name: "thinking of an earlier turn (stripped by the API, not counted)",
    change: (b) => b.messages[1].content.unshift({ type: "thinking", thinking: THINKING, signature: "sig" }),
    tokens: 0,
  },
  {
    name: "document (plain text source, with title)",
    change: (b) =>
      b.messages[2].content.push({
        type: "document",
        title: "Paris",
        source: { type: "text", media_type: "text/plain", data: DOC_TEXT },
      }),
    tokens: countTokens("Paris") + countTokens(DOC_TEXT),
  },
  {
    name: "system (string)",
    change: (b) => (b.system = "You are terse."),
    tokens: countTokens("You are terse.") + 4,
  },
  {
    name: "system (blocks)",
    change: (
      b,
    ) => (b.system = [{ type: "text", text: "You are terse." }, { type: "text", text: "Use metric." }]),
    tokens: countTokens("You are terse.") + countTokens("Use metric.") + 4,
  },
  {
    name: "tools",
    change: (b) => (b.tools = [TOOL]),
    tokens: countTokens(JSON.stringify(TOOL)),
  },
];

async function count(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await post(`${url}/v1/messages/count_tokens`, body, { "anthropic-version": "2023-06-01" });
  return { status: response.status, json: await response.json() };
}

Deno.test("count_tokens counts every block type exactly as the reference tokenizer does", async (t) => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    const baseline = await count(gw.url, base("p/m1"));
    assertEquals(baseline.status, 200);
    const expectedBase = countTokens("Weather in Paris?") + countTokens("Let me look.") +
      countTokens("Go on.") +
      3 * 4 + 3;
    assertEquals(baseline.json.input_tokens, expectedBase, "base: three messages, each with its overhead");
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const body = base("p/m1");
        c.change(body);
        const got = await count(gw.url, body);
        assertEquals(got.status, 200, JSON.stringify(got.json));
        assertEquals((got.json.input_tokens as number) - expectedBase, c.tokens);
      });
    }
    assertEquals(mock.requests.length, 0, "a chat-completions upstream has no counting endpoint to ask");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("count_tokens answers a messages-format error, never a zero, when it cannot count", async () => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    const body = base("p/m1");
    body.messages[2].content.push({
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" },
    });
    const pdf = await count(gw.url, body);
    assertEquals(pdf.status, 422);
    assertEquals((pdf.json as { type: string }).type, "error");
    assert(/pdf/.test(JSON.stringify(pdf.json)), JSON.stringify(pdf.json));
    const bad = await count(gw.url, { model: "p/m1", messages: "not a list" });
    assertEquals(bad.status, 400);
    assertEquals((bad.json as { type: string }).type, "error");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("count_tokens asks the upstream's own counting endpoint (messages, generate-content)", async () => {
  const mock = await startMockUpstream();
  mock.script({
    handler: (request) =>
      request.path.endsWith("/v1/messages/count_tokens")
        ? Response.json({ input_tokens: 4242 })
        : Response.json({ totalTokens: 777 }),
  });
  const gw = await startTestGateway(chatProvidersYaml([
    { id: "m", prefix: "claude", url: mock.url, apiType: "messages_native", models: ["sonnet"] },
    { id: "g", prefix: "gem", url: mock.url, apiType: "generate_native", models: ["flash"] },
  ]));
  try {
    assertEquals((await count(gw.url, base("claude/sonnet"))).json, { input_tokens: 4242 });
    assertEquals(mock.requests[0].path, "/v1/messages/count_tokens");
    assertEquals(mock.requests[0].body.model, "sonnet", "the upstream's own model name");
    assertEquals((await count(gw.url, base("gem/flash"))).json, { input_tokens: 777 });
    assertEquals(mock.requests[1].path, "/v1beta/models/flash:countTokens");
    const inner = mock.requests[1].body.generateContentRequest as { contents: unknown[] };
    assertEquals(inner.contents.length, 3);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("a 256 KB count_tokens body does not hold up /v1/health: health answers before the count does", async () => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    // No spaces: the costliest text per character for the tokenizer.
    let text = "";
    let state = 7;
    while (text.length < 256 * 1024) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      text += "abcdefghijklmnopqrstuvwxyz"[(state >>> 16) % 26];
    }
    const counting = count(gw.url, { model: "p/m1", messages: [{ role: "user", content: text }] });
    // Probes start once the count itself is running: a count on the serving loop would let none through.
    const before = await healthAnswersDuringCount(gw.url, gw.runtime.tokenCounter, counting);
    const got = await counting;
    assertEquals(got.status, 200);
    assert(before >= 3, `only ${before} health answers came before the count's`);
    assert((got.json.input_tokens as number) > 256 * 1024 / 4, `implausible count ${got.json.input_tokens}`);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("a count_tokens request is a request like any other: one request-log row with its answer, one for a failed count", async () => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    const control = gw.runtime.control;
    control.store.settings.set("server_request_logging", "true");
    control.reload();
    const counted = await count(gw.url, base("p/m1"));
    assertEquals(counted.status, 200);
    const bad = await count(gw.url, { model: "p/m1", messages: "not a list" });
    assertEquals(bad.status, 400);
    gw.runtime.writer.flush();
    const rows = control.store.requestLogs.all().sort((a, b) => a.id - b.id);
    assertEquals(rows.map((row) => [row.clientFormat, row.model, row.status]), [
      ["messages", "p/m1", 200],
      ["messages", "p/m1", 400],
    ]);
    assertEquals(JSON.parse(rows[0].responseBody), counted.json);
    assertEquals(mock.requests.length, 0, "a chat upstream has no counting endpoint: counted locally");
  } finally {
    await gw.stop();
    await mock.close();
  }
});
