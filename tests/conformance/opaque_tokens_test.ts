/**
 * Opaque upstream tokens survive any client format. Every client surface runs a two-turn tool loop
 * (stream and non-stream) against upstreams that sign their tool turns and reject a second turn without
 * the signature, like the real APIs: Gemini 3 thoughtSignatures on functionCall parts, signed Anthropic
 * thinking with thinking on, Responses encrypted reasoning. Each client echoes back only what its own
 * format carries (its turn-two body is built from what it decoded), and every answer names the model id
 * the client sent.
 */
import type { NeutralRequest, Part, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { decodeClientBytes } from "../helpers/collect.ts";
import { formatOfPath } from "../helpers/format_upstream.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type SigningMock, startSigningUpstream, TOKENS } from "../helpers/signing_upstream.ts";

const CLIENTS: readonly WireFormat[] = [
  "chat_completions",
  "responses",
  "messages",
  "generate_content",
  "local_runner",
];
const UPSTREAMS = [
  {
    prefix: "up_gemini",
    apiType: "generate_native",
    path: "",
    model: "gemini-3-pro",
    format: "generate_content",
  },
  {
    prefix: "up_claude",
    apiType: "messages_native",
    path: "",
    model: "claude-sonnet-4-5",
    format: "messages",
  },
  { prefix: "up_openai", apiType: "responses_native", path: "/v1", model: "gpt-5", format: "responses" },
] as const;

function yamlFor(url: string): string {
  return "providers:\n" +
    UPSTREAMS.map((u) =>
      `  - id: ${u.prefix}-1\n    prefix: ${u.prefix}\n    api_type: ${u.apiType}\n    base_url: ${url}${u.path}\n    api_key: k\n    models: [${u.model}]\n`
    ).join("");
}

const WEATHER_TOOL = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const USER: Part = { kind: "text", text: "What is the weather in Paris?" };

function neutral(messages: NeutralRequest["messages"], stream: boolean): NeutralRequest {
  return {
    model: "client-side",
    system: [{ kind: "text", text: "You are terse." }],
    messages,
    tools: [WEATHER_TOOL],
    params: { maxTokens: 4096 },
    reasoning: { effort: "high", includeThoughts: true },
    stream,
    source: "chat_completions",
  };
}

/** Sends one client request the way that client's SDK would; returns status and text. */
async function send(gw: TestGateway, client: WireFormat, request: NeutralRequest, route: string) {
  // Encoded under a neutral name, so no upstream-side repair of the codec leaks into the client's body.
  const body = codecFor(client).encodeRequest(request, "client-side").body;
  let url: string;
  const stream = request.stream;
  switch (client) {
    case "chat_completions":
      url = `${gw.url}/v1/chat/completions`;
      break;
    case "responses":
      url = `${gw.url}/v1/responses`;
      // Codex asks for encrypted reasoning; it keeps no state upstream.
      body.include = ["reasoning.encrypted_content"];
      break;
    case "messages":
      url = `${gw.url}/v1/messages`;
      break;
    case "generate_content":
      url = `${gw.url}/v1beta/models/${route}:${
        stream ? "streamGenerateContent?alt=sse" : "generateContent"
      }`;
      break;
    case "local_runner":
      url = `${gw.url}/api/chat`;
      body.stream = stream;
      break;
  }
  if (client !== "generate_content") body.model = route;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    warnings: response.headers.get("x-gateway-warnings"),
  };
}

/** Every model name in a client's bytes (tool arguments are escaped JSON strings and never match). */
function namedModels(text: string): string[] {
  return [...text.matchAll(/"(?:model|modelVersion)":"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    JSON.parse(`"${m[1]}"`)
  );
}

/** Runs turn one and turn two for one client; returns turn two's outcome. */
async function toolLoop(gw: TestGateway, client: WireFormat, route: string, stream: boolean) {
  const first = await send(gw, client, neutral([{ role: "user", parts: [USER] }], stream), route);
  assertEquals(first.status, 200, `turn one: ${first.text.slice(0, 300)}`);
  assertEquals([...new Set(namedModels(first.text))], [route], "turn one names the model the client sent");
  const answer = await decodeClientBytes(client, stream, first.text);
  const call = answer.parts.find((p) => p.kind === "toolCall");
  assert(
    call !== undefined && call.kind === "toolCall",
    `turn one has a tool call: ${first.text.slice(0, 300)}`,
  );
  const history: NeutralRequest["messages"] = [
    { role: "user", parts: [USER] },
    { role: "assistant", parts: answer.parts },
    {
      role: "tool",
      parts: [{
        kind: "toolResult",
        callId: call.id,
        name: call.name,
        content: [{ kind: "text", text: '{"c":18}' }],
      }],
    },
  ];
  const second = await send(gw, client, neutral(history, stream), route);
  return { ...second, history };
}

async function withGateway(
  options: { lenient?: boolean },
  body: (gw: TestGateway, mock: SigningMock) => Promise<void>,
): Promise<void> {
  const mock = await startSigningUpstream(options);
  const gw = await startTestGateway(yamlFor(mock.url));
  try {
    await body(gw, mock);
  } finally {
    await gw.stop();
    await mock.close();
  }
}

Deno.test("signatures, signed thinking and encrypted reasoning round-trip from every client surface through a two-turn tool loop", async (t) => {
  await withGateway({}, async (gw, mock) => {
    for (const upstream of UPSTREAMS) {
      for (const client of CLIENTS) {
        for (const stream of [false, true]) {
          await t.step(`${client} ← ${upstream.format} ${stream ? "stream" : "non-stream"}`, async () => {
            const route = `${upstream.prefix}/${upstream.model}`;
            const before = mock.requests.length;
            const second = await toolLoop(gw, client, route, stream);
            assertEquals(second.status, 200, `turn two: ${second.text.slice(0, 300)}`);
            assertEquals(
              [...new Set(namedModels(second.text))],
              [route],
              "turn two names the model the client sent",
            );
            const text = (await decodeClientBytes(client, stream, second.text)).parts
              .map((p) => (p.kind === "text" ? p.text : "")).join("");
            assertEquals(text, "It is 18C in Paris.");
            const sent = mock.requests.slice(before);
            assertEquals(sent.length, 2, "one upstream call per turn, no retries");
            assertEquals(formatOfPath(sent[1].path), upstream.format);
            if (upstream.format === "messages") {
              const thinking = sent[1].body.thinking as { type?: string } | undefined;
              assertEquals(thinking?.type, "enabled", "thinking stays on: the signed block came back");
            }
          });
        }
      }
    }
    assertEquals(mock.rejections, [], "no second turn was rejected");
  });
});

Deno.test("tokens kept for a tool call survive a gateway restart (the client replays its history)", async () => {
  const mock = await startSigningUpstream();
  const dir = Deno.makeTempDirSync({ prefix: "gateway-tokens-" });
  try {
    for (const upstream of UPSTREAMS) {
      const route = `${upstream.prefix}/${upstream.model}`;
      let gw = await startTestGateway(yamlFor(mock.url), { dir });
      const first = await send(
        gw,
        "chat_completions",
        neutral([{ role: "user", parts: [USER] }], false),
        route,
      );
      assertEquals(first.status, 200, first.text);
      await gw.stop();
      gw = await startTestGateway(yamlFor(mock.url), { dir });
      try {
        const answer = await decodeClientBytes("chat_completions", false, first.text);
        const call = answer.parts.find((p) => p.kind === "toolCall") as Extract<Part, { kind: "toolCall" }>;
        const history: NeutralRequest["messages"] = [
          { role: "user", parts: [USER] },
          { role: "assistant", parts: answer.parts },
          {
            role: "tool",
            parts: [{ kind: "toolResult", callId: call.id, content: [{ kind: "text", text: "18" }] }],
          },
        ];
        const second = await send(gw, "chat_completions", neutral(history, false), route);
        assertEquals(second.status, 200, `${upstream.format} after restart: ${second.text.slice(0, 300)}`);
        for (const adjusted of ["changed_part:signature", "changed_field:thinking"]) {
          assert(!second.warnings?.includes(adjusted), `restored, not adjusted: ${second.warnings}`);
        }
      } finally {
        await gw.stop();
      }
    }
    assertEquals(mock.rejections, []);
  } finally {
    await mock.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("when a token is truly lost, the gateway adjusts the request instead of sending one the upstream must reject", async (t) => {
  await withGateway({ lenient: true }, async (gw, mock) => {
    // History the gateway never answered (another gateway, or tokens past their age): nothing to restore.
    const history = (id: string): NeutralRequest["messages"] => [
      { role: "user", parts: [USER] },
      {
        role: "assistant",
        parts: [{ kind: "toolCall", id, name: "get_weather", arguments: '{"city":"Lyon"}' }],
      },
      { role: "tool", parts: [{ kind: "toolResult", callId: id, content: [{ kind: "text", text: "18" }] }] },
    ];
    await t.step("Gemini 3: the current turn's call gets Google's skip value", async () => {
      const before = mock.requests.length;
      const got = await send(
        gw,
        "chat_completions",
        neutral(history("call_lost_1"), false),
        "up_gemini/gemini-3-pro",
      );
      assertEquals(got.status, 200, got.text);
      assert(got.warnings?.includes("changed_part:signature"), `warnings: ${got.warnings}`);
      const contents = mock.requests[before].body.contents as {
        role: string;
        parts: Record<string, unknown>[];
      }[];
      const call = contents.find((c) => c.role === "model")?.parts[0];
      assertEquals(call?.thoughtSignature, TOKENS.skip);
    });
    await t.step("messages with thinking on: thinking is turned off for this request", async () => {
      const before = mock.requests.length;
      const got = await send(
        gw,
        "chat_completions",
        neutral(history("call_lost_2"), false),
        "up_claude/claude-sonnet-4-5",
      );
      assertEquals(got.status, 200, got.text);
      assert(got.warnings?.includes("changed_field:thinking"), `warnings: ${got.warnings}`);
      assertEquals(mock.requests[before].body.thinking, undefined);
    });
    assertEquals(mock.rejections, []);
  });
});

Deno.test("a Responses client carries signed thinking itself (wrapped encrypted_content): another gateway with no store continues the tool loop", async (t) => {
  const mock = await startSigningUpstream();
  try {
    for (const stream of [false, true]) {
      await t.step(stream ? "stream" : "non-stream", async () => {
        const route = "up_claude/claude-sonnet-4-5";
        const first = await startTestGateway(yamlFor(mock.url));
        let turnOne;
        try {
          turnOne = await send(first, "responses", neutral([{ role: "user", parts: [USER] }], stream), route);
        } finally {
          await first.stop();
        }
        assertEquals(turnOne.status, 200, turnOne.text.slice(0, 300));
        assert(
          turnOne.text.includes('"encrypted_content":"gwr1.'),
          "the signed thinking travels to the client",
        );
        const answer = await decodeClientBytes("responses", stream, turnOne.text);
        const call = answer.parts.find((p) => p.kind === "toolCall") as Extract<Part, { kind: "toolCall" }>;
        const history: NeutralRequest["messages"] = [
          { role: "user", parts: [USER] },
          { role: "assistant", parts: answer.parts },
          {
            role: "tool",
            parts: [{ kind: "toolResult", callId: call.id, content: [{ kind: "text", text: "18" }] }],
          },
        ];
        const other = await startTestGateway(yamlFor(mock.url));
        try {
          const before = mock.requests.length;
          const second = await send(other, "responses", neutral(history, stream), route);
          assertEquals(second.status, 200, second.text.slice(0, 300));
          assertEquals((mock.requests[before].body.thinking as { type?: string })?.type, "enabled");
        } finally {
          await other.stop();
        }
      });
    }
    assertEquals(mock.rejections, []);
  } finally {
    await mock.close();
  }
});
