/**
 * The conformance matrix: every client surface × every upstream wire format × {stream, non-stream} ×
 * every scenario of the neutral fixture, through a real gateway. Each case checks what the client
 * decodes (text, tool calls, usage, finish) and what the upstream received (tool pairing, images), and
 * compares the exact client bytes with golden files (UPDATE_GOLDEN=1 rewrites them).
 */
import type { NeutralRequest, NeutralResponse, Part, WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { stableHash } from "../../src/wire/shared/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decodeClientBytes } from "../helpers/collect.ts";
import { startFormatUpstream, type UpstreamLabel, upstreamLabelOf } from "../helpers/format_upstream.ts";
import { kiroToolPairs } from "../helpers/kiro_wire.ts";
import { apiKeyFor } from "../e2e/harness.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import {
  type ScenarioName,
  scenarioRequest,
  scenarioResponse,
  SCENARIOS,
} from "../fixtures/neutral_scenarios.ts";

const CLIENTS: readonly WireFormat[] = [
  "chat_completions",
  "responses",
  "messages",
  "generate_content",
  "local_runner",
];
const UPSTREAMS = [
  { prefix: "up_chat", format: "chat_completions", apiType: "chat_compat", path: "/v1" },
  { prefix: "up_messages", format: "messages", apiType: "messages_native", path: "" },
  { prefix: "up_generate", format: "generate_content", apiType: "generate_native", path: "" },
  { prefix: "up_responses", format: "responses", apiType: "responses_native", path: "/v1" },
  // Generate-content inside Google's v1internal envelope, and the cloud assistant's own format.
  { prefix: "up_cloudcode", format: "cloud_code", apiType: "cli_oauth", path: "" },
  { prefix: "up_kiro", format: "cloud_assistant", apiType: "cloud_assistant_oauth", path: "" },
] as const;
const FIXED_NOW = 1_763_700_000_000;
const GOLDEN_DIR = new URL("../fixtures/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

function yamlFor(mockUrl: string): string {
  return "providers:\n" +
    UPSTREAMS.map((u) =>
      `  - id: ${u.prefix}-1\n    prefix: ${u.prefix}\n    api_type: ${u.apiType}\n    base_url: ${mockUrl}${u.path}\n    api_key: '${
        apiKeyFor(u.prefix)
      }'\n    models: [text]\n`
    ).join("") +
    // One combo per upstream kind, so a combo name can be asked for from every surface.
    "combos:\n" +
    UPSTREAMS.map((u) => `  - name: ${comboOf(u.prefix)}\n    models: [${u.prefix}/text]\n`).join("");
}

/** The combo whose only member is `<prefix>/text`. */
function comboOf(prefix: string): string {
  return `combo_${prefix}`;
}

/**
 * Names a client may send besides `prefix/model`: with a thinking suffix (routed without it, answered
 * with it) and a combo name. Every answer and stream event must name exactly what was sent.
 */
function aliasRoutes(prefix: string): string[] {
  return [`${prefix}/text(high)`, comboOf(prefix)];
}

/** Sends the client's request for a case; returns status and raw text. */
async function send(
  gatewayUrl: string,
  client: WireFormat,
  request: NeutralRequest,
  route: string,
): Promise<{ status: number; text: string }> {
  const body = codecFor(client).encodeRequest(request, route).body;
  let url: string;
  switch (client) {
    case "chat_completions":
      url = `${gatewayUrl}/v1/chat/completions`;
      break;
    case "responses":
      url = `${gatewayUrl}/v1/responses`;
      break;
    case "messages":
      url = `${gatewayUrl}/v1/messages`;
      break;
    case "generate_content":
      url = `${gatewayUrl}/v1beta/models/${route}:${
        request.stream ? "streamGenerateContent?alt=sse" : "generateContent"
      }`;
      break;
    case "local_runner":
      url = `${gatewayUrl}/api/chat`;
      body.stream = request.stream;
      break;
  }
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

function textOf(parts: readonly Part[], kind: "text" | "reasoning"): string {
  return parts.map((p) => (p.kind === kind ? p.text : "")).join("");
}

/** Which usage buckets a client format can express. */
function expressesCacheRead(client: WireFormat): boolean {
  return client !== "local_runner";
}

/**
 * Which upstream formats report cache-write tokens: Generate-content (and the cloud-code envelope) and
 * Responses have no such bucket, so the gateway can only pass on 0 from them.
 */
function reportsCacheWrite(upstream: UpstreamLabel): boolean {
  return upstream === "chat_completions" || upstream === "messages" || upstream === "cloud_assistant";
}

function checkAnswer(
  client: WireFormat,
  upstream: UpstreamLabel,
  scenario: ScenarioName,
  got: NeutralResponse,
) {
  const expected = scenarioResponse(scenario);
  assertEquals(got.usage.inputTotal, expected.usage.inputTotal, "input total");
  assertEquals(got.usage.output, expected.usage.output, "output tokens");
  if (expressesCacheRead(client)) assertEquals(got.usage.cacheRead, expected.usage.cacheRead, "cache read");
  // Messages is the one client surface with a cache-write bucket: it carries what the upstream reported.
  if (client === "messages") {
    const reported = reportsCacheWrite(upstream) ? expected.usage.cacheWrite : 0;
    assertEquals(got.usage.cacheWrite, reported, `cache write from ${upstream}`);
  }
  switch (scenario) {
    case "tool_round_trip": {
      const calls = got.parts.filter((p) => p.kind === "toolCall");
      assertEquals(calls.length, 1);
      const call = calls[0] as Extract<Part, { kind: "toolCall" }>;
      assertEquals(call.name, "get_weather");
      assertEquals(JSON.parse(call.arguments), { city: "Berlin" });
      assert(call.id !== "", "tool call id");
      assertEquals(got.finish.unified, "tool_calls");
      break;
    }
    case "reasoning":
      assertEquals(textOf(got.parts, "text"), "Yes, 17 is prime.");
      assertEquals(got.finish.unified, "stop");
      break;
    default:
      assertEquals(textOf(got.parts, "text"), textOf(expected.parts, "text"));
      assertEquals(got.finish.unified, "stop");
  }
}

/** The cloud assistant's request: system text leads the current message, tools and results sit beside it. */
function checkKiroRequest(scenario: ScenarioName, body: Record<string, unknown>, path: string) {
  const text = JSON.stringify(body);
  const state = body.conversationState as { currentMessage: { userInputMessage: { content: string } } };
  assert(state.currentMessage.userInputMessage.content.startsWith("You are terse."), `${path}: system text`);
  if (scenario === "tool_round_trip") {
    const pairs = kiroToolPairs(body);
    assertEquals(pairs.map(([call]) => JSON.parse(call).city), ["Paris", "Rome"], `${path}: tool calls`);
    assert(text.includes('"toolSpecification":{"name":"get_weather"'), `${path}: tool spec`);
  }
  if (scenario === "image") {
    assert(text.includes('"images":[{"format":"png"'), `${path}: image reached the upstream`);
  }
}

/**
 * Every model name in a client's bytes (`"model"` and Gemini's `"modelVersion"` members; tool arguments
 * are escaped JSON strings and never match).
 */
function namedModels(text: string): string[] {
  return [...text.matchAll(/"(?:model|modelVersion)":"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    JSON.parse(`"${m[1]}"`)
  );
}

/** The client sees the model id it sent in every answer and every stream event that names one. */
function checkModelNames(route: string, text: string, got: NeutralResponse, label: string) {
  const named = namedModels(text);
  assert(named.length > 0, `${label}: the answer names a model`);
  assertEquals([...new Set(named)], [route], `${label}: model names`);
  assertEquals(got.model, route, `${label}: decoded model`);
}

function checkUpstreamRequest(
  label: UpstreamLabel,
  scenario: ScenarioName,
  wire: Record<string, unknown>,
  path: string,
) {
  if (label === "cloud_assistant") return checkKiroRequest(scenario, wire, path);
  const upstream = label === "cloud_code" ? "generate_content" : label;
  const body = label === "cloud_code" ? wire.request as Record<string, unknown> : wire;
  const decoded = codecFor(upstream).decodeRequest(body, { pathModel: `x/${scenario}`, endpoint: "chat" });
  const parts = decoded.messages.flatMap((m) => m.parts);
  if (scenario === "tool_round_trip") {
    const calls = parts.filter((p) => p.kind === "toolCall") as Extract<Part, { kind: "toolCall" }>[];
    const results = parts.filter((p) => p.kind === "toolResult") as Extract<Part, { kind: "toolResult" }>[];
    assertEquals(calls.map((c) => JSON.parse(c.arguments).city), ["Paris", "Rome"], `${path}: tool calls`);
    assertEquals(results.length, 2, `${path}: every tool call has its result`);
    for (const [i, result] of results.entries()) {
      assertEquals(result.callId, calls[i].id, `${path}: result ${i} pairs`);
    }
    assertEquals(decoded.tools.map((t) => t.name), ["get_weather"]);
  }
  if (scenario === "image") {
    assert(parts.some((p) => p.kind === "image"), `${path}: image reached the upstream`);
  }
  assertEquals(decoded.system.map((s) => s.text).join(""), "You are terse.");
}

/** Response ids the gateway minted for answers whose upstream gave none (random per request). */
const MINTED_ID = /resp_gw_[0-9a-f]{16}/g;

/**
 * The golden form of a client's bytes: each minted response id, and the item ids derived from it, as a
 * placeholder. Each must be new: a Responses id is a key clients store and continue from.
 */
function goldenText(text: string, seen: Set<string>): string {
  let out = text;
  for (const id of new Set(text.match(MINTED_ID) ?? [])) {
    assert(!seen.has(id), `response id ${id} was minted twice`);
    seen.add(id);
    out = out.replaceAll(id, "resp_gw_<minted>").replaceAll(stableHash(id), "<minted>");
  }
  return out;
}

Deno.test("conformance matrix: 5 client surfaces × 6 upstream kinds × stream/non-stream × scenarios", async (t) => {
  const mock = await startFormatUpstream((scenario) => {
    if (scenario === "error_before") return { kind: "fail", status: 500 };
    if (scenario === "error_after") return { kind: "break_after_text", text: "Partial ans" };
    return { kind: "answer", response: scenarioResponse(scenario as ScenarioName) };
  });
  const gw = await startTestGateway(yamlFor(mock.url), { now: () => FIXED_NOW });
  const minted = new Set<string>();
  try {
    for (const client of CLIENTS) {
      for (const upstream of UPSTREAMS) {
        const golden: string[] = [];
        await t.step(`${client} ← ${upstream.format}`, async () => {
          for (const stream of [false, true]) {
            for (const scenario of SCENARIOS) {
              const label = `${scenario} ${stream ? "stream" : "non-stream"}`;
              const before = mock.requests.length;
              const { status, text } = await send(
                gw.url,
                client,
                scenarioRequest(scenario, stream),
                `${upstream.prefix}/${scenario}`,
              );
              assertEquals(status, 200, `${label}: ${text.slice(0, 300)}`);
              const upstreamRequest = mock.requests[before];
              assertEquals(upstreamLabelOf(upstreamRequest.path), upstream.format);
              checkUpstreamRequest(upstream.format, scenario, upstreamRequest.body, label);
              const got = await decodeClientBytes(client, stream, text);
              checkAnswer(client, upstream.format, scenario, got);
              checkModelNames(
                `${upstream.prefix}/${scenario}`,
                text,
                got,
                `${client} ← ${upstream.format} ${label}`,
              );
              golden.push(`### ${label}\n${goldenText(text, minted)}`);
            }
            for (const route of aliasRoutes(upstream.prefix)) {
              const label = `${route} ${stream ? "stream" : "non-stream"}`;
              const before = mock.requests.length;
              const { status, text } = await send(gw.url, client, scenarioRequest("text", stream), route);
              assertEquals(status, 200, `${label}: ${text.slice(0, 300)}`);
              assertEquals(mock.requests.length, before + 1, `${label}: one upstream call`);
              const got = await decodeClientBytes(client, stream, text);
              checkAnswer(client, upstream.format, "text", got);
              checkModelNames(route, text, got, `${client} ← ${upstream.format} ${label}`);
            }
            const failed = await send(
              gw.url,
              client,
              scenarioRequest("text", stream),
              `${upstream.prefix}/error_before`,
            );
            assertEquals(failed.status, 503);
            assertEquals(JSON.parse(failed.text), {
              detail:
                `All providers exhausted: ${upstream.prefix}-1: HTTP 500: {"error":{"message":"upstream exploded"}}`,
            });
            gw.runtime.routing.clearAll();
          }
          const cut = await send(
            gw.url,
            client,
            scenarioRequest("text", true),
            `${upstream.prefix}/error_after`,
          );
          assertEquals(cut.status, 200, "after the first byte there is no fallback");
          const partial = await decodeClientBytes(client, true, cut.text);
          assertEquals([...new Set(namedModels(cut.text))], [`${upstream.prefix}/error_after`]);
          assertStringIncludes(textOf(partial.parts, "text"), "Partial ans");
          assert(
            partial.errors.length > 0 || partial.finish.unified === "error",
            `${client}: the cut must be visible`,
          );
          golden.push(`### error_after stream\n${goldenText(cut.text, minted)}`);
        });
        const file = new URL(`${client}__${upstream.format}.txt`, GOLDEN_DIR);
        const actual = golden.join("\n");
        if (UPDATE) Deno.writeTextFileSync(file, actual);
        else {
          let expected = "";
          try {
            expected = Deno.readTextFileSync(file);
          } catch {
            throw new Error(`missing golden file ${file.pathname}; run with UPDATE_GOLDEN=1`);
          }
          assertEquals(actual, expected, `golden bytes for ${client} ← ${upstream.format}`);
        }
      }
    }
  } finally {
    await gw.stop();
    await mock.close();
  }
});
