/**
 * Regression tests for the fuzzer's 500 classes (issue 20, point 2): each minimal hostile input is now a
 * 400 invalid_request in the client's own envelope, naming the limit it hit.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type E2E, startE2E, textAnswer } from "./harness.ts";

async function post(e2e: E2E, path: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${e2e.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const DEEP = "[".repeat(10_000) + "]".repeat(10_000);

/** Each surface with a body whose `messages`/`contents` is nested 10,000 deep, and its envelope check. */
const DEEP_BODIES: readonly {
  path: string;
  body: string;
  envelope: (body: Record<string, unknown>) => boolean;
}[] = [
  {
    path: "/v1/chat/completions",
    body: `{"model":"up_chat/text","messages":${DEEP}}`,
    envelope: (b) => typeof (b.error as Record<string, unknown>)?.type === "string",
  },
  {
    path: "/v1/responses",
    body: `{"model":"up_chat/text","input":${DEEP}}`,
    envelope: (b) => typeof (b.error as Record<string, unknown>)?.type === "string",
  },
  {
    path: "/v1/messages",
    body: `{"model":"up_chat/text","max_tokens":5,"messages":${DEEP}}`,
    envelope: (b) => b.type === "error",
  },
  {
    path: "/v1/messages/count_tokens",
    body: `{"model":"up_chat/text","messages":${DEEP}}`,
    envelope: (b) => b.type === "error",
  },
  {
    path: "/v1beta/models/up_chat/text:generateContent",
    body: `{"contents":${DEEP}}`,
    envelope: (b) => typeof (b.error as Record<string, unknown>)?.status === "string",
  },
  {
    path: "/api/chat",
    body: `{"model":"up_chat/text","messages":${DEEP}}`,
    envelope: (b) => typeof b.error === "string",
  },
  {
    path: "/api/generate",
    body: `{"model":"up_chat/text","prompt":${DEEP}}`,
    envelope: (b) => typeof b.error === "string",
  },
];

Deno.test("a body nested 10,000 deep is a 400 in each surface's envelope, not a 500", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  for (const { path, body, envelope } of DEEP_BODIES) {
    const answer = await post(e2e, path, body);
    assertEquals(answer.status, 400, `${path}: ${answer.text}`);
    assertStringIncludes(answer.text, "nested deeper than 128 levels");
    assert(envelope(JSON.parse(answer.text)), `${path}: ${answer.text}`);
  }
  assertEquals(e2e.requests.length, 0);
});

/** `{"type":"array","items":…}` nested `depth` levels. */
function arraySchema(depth: number): string {
  return '{"type":"array","items":'.repeat(depth) + '{"type":"string"}' + "}".repeat(depth);
}

function chatWithTool(model: string, parameters: string): string {
  return `{"model":"${model}","messages":[{"role":"user","content":"hi"}],` +
    `"tools":[{"type":"function","function":{"name":"deep","parameters":${parameters}}}]}`;
}

Deno.test("a tool schema 6,000 levels deep from the generate-content surface is a 400, not a 500", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const body = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],` +
    `"tools":[{"functionDeclarations":[{"name":"deep","parameters":${arraySchema(6_000)}}]}]}`;
  const answer = await post(e2e, "/v1beta/models/up_generate/text:generateContent", body);
  assertEquals(answer.status, 400, answer.text);
  assertStringIncludes(answer.text, "nested deeper than 128 levels");
});

Deno.test("a tool schema deeper than 64 levels sent to a generate-content upstream is a 400 naming the tool", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const answer = await post(e2e, "/v1/chat/completions", chatWithTool("up_generate/text", arraySchema(100)));
  assertEquals(answer.status, 400, answer.text);
  assertStringIncludes(answer.text, 'the parameters of tool \\"deep\\" nest deeper than 64 levels');
  assertEquals(e2e.requests.length, 0);
});

Deno.test("a tool schema whose $refs fan out 12 ways 16 deep is a 400, not an hour of inlining", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const defs: Record<string, unknown> = {};
  for (let level = 0; level < 16; level++) {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) properties[`p${i}`] = { $ref: `#/$defs/d${level + 1}` };
    defs[`d${level}`] = { type: "object", properties };
  }
  defs.d16 = { type: "string" };
  const schema = JSON.stringify({
    type: "object",
    properties: { root: { $ref: "#/$defs/d0" } },
    $defs: defs,
  });
  const answer = await post(e2e, "/v1/chat/completions", chatWithTool("up_generate/text", schema));
  assertEquals(answer.status, 400, answer.text);
  assertStringIncludes(answer.text, "expand to more than 20000 schemas");
});

Deno.test("a model name with a lone surrogate is a 400 on every upstream, not a 500 from URL encoding", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  for (const prefix of ["up_generate", "up_chat"]) {
    const body = `{"model":"${prefix}/\\ud800x","messages":[{"role":"user","content":"hi"}]}`;
    const answer = await post(e2e, "/v1/chat/completions", body);
    assertEquals(answer.status, 400, answer.text);
    assertStringIncludes(answer.text, "model: must be valid Unicode text");
  }
  const viaPath = await post(e2e, "/v1beta/models/up_generate/%ED%A0%80:generateContent", '{"contents":[]}');
  assertEquals(viaPath.status, 400, viaPath.text);
});

Deno.test("a 300-character model name and 513 tools are 400s naming the limit", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const long = await post(
    e2e,
    "/v1/messages",
    JSON.stringify({
      model: `up_chat/${"m".repeat(300)}`,
      max_tokens: 5,
      messages: [{ role: "user", content: "hi" }],
    }),
  );
  assertEquals(long.status, 400, long.text);
  assertStringIncludes(long.text, "model: must be at most 256 characters long");
  const tools = Array.from({ length: 513 }, (_, i) => ({ name: `t${i}`, input_schema: { type: "object" } }));
  const many = await post(
    e2e,
    "/v1/messages",
    JSON.stringify({
      model: "up_chat/text",
      max_tokens: 5,
      messages: [{ role: "user", content: "hi" }],
      tools,
    }),
  );
  assertEquals(many.status, 400, many.text);
  assertStringIncludes(many.text, "tools: must have at most 512 tool declarations");
});

Deno.test("POST /v1/models/<model> without a method is a 404 in the generate-content envelope", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const answer = await post(e2e, "/v1/models/up_chat/text", '{"contents":[]}');
  assertEquals(answer.status, 404, answer.text);
  const body = JSON.parse(answer.text);
  assertEquals(typeof body.error.code, "number");
  assertEquals(typeof body.error.status, "string");
});

Deno.test("tool-call arguments holding JSON nested 100,000 deep reach any upstream without a 500", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const deepArguments = JSON.stringify('{"a":'.repeat(100_000) + "1" + "}".repeat(100_000));
  const deepResult = deepArguments;
  for (const prefix of ["up_messages", "up_generate", "up_chat", "up_responses"]) {
    const body = `{"model":"${prefix}/text","messages":[{"role":"user","content":"hi"},` +
      `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",` +
      `"function":{"name":"f","arguments":${deepArguments}}}]},` +
      `{"role":"tool","tool_call_id":"call_1","content":${deepResult}}]}`;
    const answer = await post(e2e, "/v1/chat/completions", body);
    assert(answer.status < 500, `${prefix}: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
});

Deno.test("a bad value of several MiB is quoted cut short in the 400, never echoed whole", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const huge = "x".repeat(4 * 1024 * 1024);
  const cases: [string, unknown][] = [
    ["/v1/chat/completions", {
      model: "up_chat/text",
      messages: [{ role: huge, content: "hi" }],
    }],
    ["/v1/chat/completions", {
      model: "up_chat/text",
      messages: [{ role: "user", content: [{ type: huge, text: "hi" }] }],
    }],
    ["/v1/responses", { model: "up_chat/text", input: [{ type: huge }] }],
    ["/v1/messages", {
      model: "up_chat/text",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: huge }] }],
    }],
    ["/v1/chat/completions", {
      model: "up_chat/text",
      messages: [{ role: "tool", tool_call_id: huge, content: "orphan result" }],
    }],
    ["/v1/messages", {
      model: "up_chat/text",
      max_tokens: 5,
      messages: [{ role: huge, content: "hi" }],
    }],
  ];
  for (const [path, body] of cases) {
    const answer = await post(e2e, path, JSON.stringify(body));
    assertEquals(answer.status, 400, path);
    assert(answer.text.length < 2_000, `${path} echoed ${answer.text.length} characters`);
  }
});

Deno.test("a body holding more than 50,000 JSON values is a 400 before validation walks it", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const parts = JSON.stringify(Array(60_000).fill(0));
  const over = await post(e2e, "/v1/messages", `{"model":"up_chat/text","max_tokens":5,"messages":${parts}}`);
  assertEquals(over.status, 400, over.text);
  assertStringIncludes(over.text, "more than 50000 values");
  // A long but ordinary conversation (4,000 turns, ~12,000 values) is well inside the limit.
  const turns = Array.from(
    { length: 4_000 },
    (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "hi" }),
  );
  const long = await post(
    e2e,
    "/v1/chat/completions",
    JSON.stringify({ model: "up_chat/text", messages: turns }),
  );
  assertEquals(long.status, 200, long.text.slice(0, 300));
});

Deno.test("an image the gateway may not fetch for an inline-only upstream is reported, not lost silently", async () => {
  await using e2e = await startE2E({ text: textAnswer("ok") });
  const response = await fetch(`${e2e.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "up_generate/text",
      messages: [{
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          // A loopback address: private targets are refused unless server.allow_private_image_urls is on.
          { type: "image_url", image_url: { url: "http://127.0.0.1:9/cat.png" } },
        ],
      }],
    }),
  });
  await response.body?.cancel();
  assertEquals(response.status, 200);
  assertStringIncludes(response.headers.get("x-gateway-warnings") ?? "", "changed_part:image_not_fetched");
});
