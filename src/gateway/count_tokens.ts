import { imageTokens, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from "../accounting/mod.ts";
import { callUpstream } from "../executors/call_upstream.ts";
import { presetFor } from "../executors/presets.ts";
import { GatewayError, type NeutralRequest } from "../model/mod.ts";
import type { Attempt } from "../routing/mod.ts";
import { codecFor, countableInput, unwrapCloudCodeResponse } from "../wire/mod.ts";
import { cloudCodeCountCall } from "../executors/cloud_code.ts";
import { isRecord } from "../wire/shared/mod.ts";
import type { AttemptDeps } from "./attempt_context.ts";
import type { LongStrings } from "../long_strings.ts";
import { jsonRequestBody } from "./sliced_json.ts";

/** Upstream count answers are tiny; anything bigger is not one. */
const COUNT_ANSWER_LIMIT = 64 * 1024;

/**
 * `POST /v1/messages/count_tokens`: the upstream's own count where the model's first account has a
 * counting endpoint (messages, generate-content), else the reference tokenizer over every block type, in
 * a worker thread. A body that cannot be counted locally (a PDF with no counting upstream) is an error,
 * never a zero: a zero makes Claude Code believe its context is empty and never compact.
 */
export async function countMessageTokens(
  deps: AttemptDeps,
  body: unknown,
  attempt: Attempt | undefined,
  clientHeaders: Headers,
  clientSignal: () => AbortSignal,
  longStrings?: LongStrings,
): Promise<number> {
  // The decoder checks the body; documents are counted below but have no neutral part yet.
  const request = codecFor("messages").decodeRequest(countable(body), {});
  const raw = body as Record<string, unknown>;
  if (attempt !== undefined) {
    const upstream = await upstreamCount(
      deps,
      raw,
      request,
      attempt,
      clientHeaders,
      clientSignal,
      longStrings,
    );
    if (upstream !== null) return upstream;
  }
  const input = countableInput(raw);
  if (input.uncountable !== null) {
    throw new GatewayError(422, "invalid_request", `Cannot count tokens: ${input.uncountable}`);
  }
  let fixed = REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS * input.messages;
  if (raw.system !== undefined) fixed += MESSAGE_OVERHEAD_TOKENS;
  for (const image of input.images) fixed += imageTokens(image);
  try {
    return fixed + await deps.counter.count(input.texts, longStrings);
  } catch (error) {
    throw new GatewayError(503, "unavailable", `Cannot count tokens: ${(error as Error).message}`);
  }
}

/**
 * The upstream's own count, or null when it has no counting endpoint or could not answer (the local
 * count is then the answer; a count is an estimate the client plans with, not a bill).
 */
async function upstreamCount(
  deps: AttemptDeps,
  raw: Record<string, unknown>,
  request: NeutralRequest,
  attempt: Attempt,
  clientHeaders: Headers,
  clientSignal: () => AbortSignal,
  longStrings?: LongStrings,
): Promise<number | null> {
  const provider = deps.control.providers.find((p) => p.id === attempt.account.id);
  const preset = provider ? presetFor(provider.apiType) : null;
  if (!provider || !preset?.countUrl) return null;
  const model = attempt.upstreamModel;
  let body: unknown;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...preset.authHeaders(provider.apiKey),
  };
  if (preset.format === "messages") {
    body = { ...raw, model };
    headers["anthropic-version"] = clientHeaders.get("anthropic-version") ?? "2023-06-01";
    const beta = clientHeaders.get("anthropic-beta");
    if (beta) headers["anthropic-beta"] = beta;
  } else if (preset.format === "generate_content" && preset.shaper) {
    let call;
    try {
      // Through the credential manager like requests: a due token is refreshed (and stored) first.
      const credential = await deps.subscriptions.credentials.forProvider(provider);
      const encoded = codecFor("generate_content").encodeRequest({ ...request, stream: false }, model).body;
      call = cloudCodeCountCall(
        provider.apiType,
        provider.baseUrl,
        credential.accessToken,
        encoded,
        model,
        deps.newId(),
      );
    } catch {
      return null;
    }
    Object.assign(headers, call.headers);
    body = call.json;
  } else if (preset.format === "generate_content") {
    const encoded = codecFor("generate_content").encodeRequest({ ...request, stream: false }, model).body;
    body = { generateContentRequest: { ...encoded, model: `models/${model}` } };
  } else return null;
  const outcome = await callUpstream({
    url: preset.countUrl(provider.baseUrl, model),
    headers,
    // A big body (a long document to count) is encoded a slice per turn, its held strings by their pieces.
    body: await jsonRequestBody(body, longStrings),
    client: deps.clients.get(provider.id, `${provider.baseUrl}|${provider.apiType}`),
    clientSignal,
    headersTimeoutMs: deps.timeouts.headersMs,
    idleTimeoutMs: deps.timeouts.idleMs,
  });
  if (outcome.kind === "cancelled") throw new GatewayError(499, "client_closed", "client disconnected");
  if (outcome.kind !== "response") return null;
  if (outcome.status >= 400) {
    await outcome.readText(COUNT_ANSWER_LIMIT);
    return null;
  }
  let answer: unknown;
  try {
    answer = JSON.parse(await outcome.readAnswer(COUNT_ANSWER_LIMIT));
  } catch {
    return null;
  }
  answer = unwrapCloudCodeResponse(answer);
  if (!isRecord(answer)) return null;
  const tokens = preset.format === "messages" ? answer.input_tokens : answer.totalTokens;
  return typeof tokens === "number" && Number.isFinite(tokens) && tokens >= 0 ? tokens : null;
}

/** count_tokens bodies have no max_tokens, and documents have no neutral part yet: both made decodable. */
function countable(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const messages = Array.isArray(body.messages)
    ? body.messages.map((message) => {
      if (!isRecord(message) || !Array.isArray(message.content)) return message;
      const content = message.content.map((block) =>
        isRecord(block) && block.type === "document" ? { type: "text", text: "(document)" } : block
      );
      return { ...message, content };
    })
    : body.messages;
  return { max_tokens: 1, ...body, messages };
}
