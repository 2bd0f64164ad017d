/**
 * The end-to-end harness: a real gateway in front of one mock upstream that speaks every upstream wire
 * format (the path names the format, the model field names the scenario). Tests script neutral answers
 * per scenario; the codecs turn them into each upstream's own bytes.
 */
import type { NeutralResponse, Part, Usage } from "../../src/model/mod.ts";
import type { RecordedRequest } from "../helpers/mock_upstream.ts";
import {
  scenarioOf,
  startFormatUpstream,
  type UpstreamLabel,
  upstreamLabelOf,
} from "../helpers/format_upstream.ts";
import { kiroToolPairs } from "../helpers/kiro_wire.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

/** The upstream formats the e2e tests route to, one provider prefix each. */
export const UPSTREAMS = [
  { prefix: "up_chat", format: "chat_completions", apiType: "chat_compat", path: "/v1" },
  { prefix: "up_messages", format: "messages", apiType: "messages_native", path: "" },
  { prefix: "up_generate", format: "generate_content", apiType: "generate_native", path: "" },
  { prefix: "up_responses", format: "responses", apiType: "responses_native", path: "/v1" },
  { prefix: "up_cloudcode", format: "cloud_code", apiType: "cli_oauth", path: "" },
  { prefix: "up_kiro", format: "cloud_assistant", apiType: "cloud_assistant_oauth", path: "" },
  // Antigravity: the same v1internal format under its own label; the Cursor bridge and free-tier presets
  // are chat-completions upstreams under kinds of their own.
  { prefix: "up_antigravity", format: "cloud_code", apiType: "cli_oauth_alt", path: "" },
  { prefix: "up_shell", format: "chat_completions", apiType: "subscription_shell", path: "/v1" },
  { prefix: "up_free", format: "chat_completions", apiType: "free_tier", path: "/v1" },
] as const;

/** A provider prefix of the harness. */
export type UpstreamPrefix = typeof UPSTREAMS[number]["prefix"];

/**
 * How the mock answers a scenario: a fixed answer, an error status (body `{"error":{"message":"upstream
 * exploded"}}`), or an answer chosen from the request and turn number.
 */
export type Answer =
  | NeutralResponse
  | { readonly status: number }
  | ((request: RecordedRequest, turn: number) => NeutralResponse);

/** A running gateway, its mock upstream, and cleanup. */
export interface E2E {
  readonly gw: TestGateway;
  readonly url: string;
  /** Every request the mock upstream received. */
  readonly requests: RecordedRequest[];
  /** The wire format of the last upstream request (proves which upstream served the answer). */
  lastUpstreamFormat(): UpstreamLabel | undefined;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Usage the answers report unless a test says otherwise. */
export const USAGE: Usage = { inputTotal: 12, cacheRead: 0, cacheWrite: 0, output: 6, reasoning: 0 };

/** A plain text answer. */
export function textAnswer(text: string, usage: Usage = USAGE): NeutralResponse {
  return answer([{ kind: "text", text }], "stop", usage);
}

/** An answer made of tool calls (`[name, argumentsJson, id]`), optionally preceded by text. */
export function toolAnswer(
  calls: readonly (readonly [string, string, string])[],
  text = "",
  usage: Usage = USAGE,
): NeutralResponse {
  const parts: Part[] = text === "" ? [] : [{ kind: "text", text }];
  for (const [name, args, id] of calls) parts.push({ kind: "toolCall", id, name, arguments: args });
  return answer(parts, "tool_calls", usage);
}

function answer(parts: Part[], finish: "stop" | "tool_calls", usage: Usage): NeutralResponse {
  return {
    id: "e2e-0001",
    model: "e2e-model",
    created: 1_700_000_000,
    parts,
    finish: { unified: finish, raw: null },
    usage,
  };
}

/**
 * The two-city scenario: two parallel get_weather calls first; once both results are in the
 * conversation, the final text.
 */
export function twoCityAnswer(request: RecordedRequest): NeutralResponse {
  const body = JSON.stringify(request.body);
  if (body.includes("18C sunny") && body.includes("24C clear")) return textAnswer("Paris 18C, Rome 24C.");
  return toolAnswer([
    ["get_weather", '{"city":"Paris"}', "call_paris_1"],
    ["get_weather", '{"city":"Rome"}', "call_rome_2"],
  ]);
}

/**
 * The tool calls and results an upstream request carries, decoded by its own codec, as
 * `[call arguments, result text]` pairs; a result whose id matches no earlier call pairs with "".
 * Generate-content wraps a text result as `{"result": text}` (its results are objects); that is unwrapped.
 */
export function upstreamToolPairs(request: RecordedRequest): [string, string][] {
  const label = upstreamLabelOf(request.path);
  if (label === "cloud_assistant") {
    return kiroToolPairs(request.body).map(([call, result]) => [call, unwrapResult(result)]);
  }
  const format = label === "cloud_code" ? "generate_content" : label;
  const body = label === "cloud_code" ? request.body.request as Record<string, unknown> : request.body;
  const decoded = codecFor(format).decodeRequest(body, {
    pathModel: `x/${scenarioOf(request)}`,
    endpoint: "chat",
  });
  const calls = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const part of decoded.messages.flatMap((m) => m.parts)) {
    if (part.kind === "toolCall") calls.set(part.id, part.arguments);
    if (part.kind === "toolResult") {
      const text = part.content.map((c) => (c.kind === "text" ? c.text : "")).join("");
      pairs.push([calls.get(part.callId) ?? "", unwrapResult(text)]);
    }
  }
  return pairs;
}

function unwrapResult(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === "object" && value !== null && "result" in value && typeof value.result === "string"
    ) {
      return value.result;
    }
  } catch { /* plain text */ }
  return text;
}

/** The stored credential of a harness provider; Cloud Code's carries its project (no discovery needed). */
export function apiKeyFor(prefix: string): string {
  return prefix === "up_cloudcode" || prefix === "up_antigravity"
    ? JSON.stringify({ access_token: `k-${prefix}`, extra: { project_id: "e2e-project" } })
    : `k-${prefix}`;
}

/**
 * Starts the mock and a gateway with one provider per upstream format serving every scenario;
 * `extraYaml` (top-level sections) is appended to the config.
 */
export async function startE2E(answers: Record<string, Answer>, extraYaml = ""): Promise<E2E> {
  const turns = new Map<string, number>();
  // Filled once the mock exists; answers read the request being served (the last one recorded).
  let recorded: RecordedRequest[] = [];
  const mock = await startFormatUpstream((scenario) => {
    const plan = answers[scenario];
    if (plan === undefined) return { kind: "fail", status: 500 };
    const turn = turns.get(scenario) ?? 0;
    turns.set(scenario, turn + 1);
    const request = recorded.at(-1);
    if ("status" in plan) return { kind: "fail", status: plan.status };
    if (typeof plan !== "function") return { kind: "answer", response: plan };
    if (request === undefined) throw new Error("mock answered before recording the request");
    return { kind: "answer", response: plan(request, turn) };
  });
  recorded = mock.requests;
  const models = Object.keys(answers).join(", ");
  const yaml = "providers:\n" +
    UPSTREAMS.map((u) =>
      `  - id: ${u.prefix}-1\n    prefix: ${u.prefix}\n    api_type: ${u.apiType}\n` +
      `    base_url: ${mock.url}${u.path}\n    api_key: '${apiKeyFor(u.prefix)}'\n    models: [${models}]\n`
    ).join("") + extraYaml;
  const gw = await startTestGateway(yaml);
  return {
    gw,
    url: gw.url,
    requests: mock.requests,
    lastUpstreamFormat() {
      const last = mock.requests.at(-1);
      return last === undefined ? undefined : upstreamLabelOf(last.path);
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}
