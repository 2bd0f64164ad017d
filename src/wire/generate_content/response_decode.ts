import type { Finish, NeutralResponse, Part } from "../../model/mod.ts";
import { splitExtra, ZERO_USAGE } from "../../model/mod.ts";
import { isRecord, tryParse, zodProblem } from "../shared/mod.ts";
import { upstreamError, upstreamErrorMessage } from "./errors.ts";
import { decodeFinish } from "./finish.ts";
import { decodePart } from "./parts_decode.ts";
import { type GeminiResponse, responseSchema } from "./schema.ts";
import { responseToolIds } from "./tool_ids.ts";
import { decodeUsage } from "./usage.ts";

const FORMAT = "generate_content";
const RESPONSE_KEYS: ReadonlySet<string> = new Set([
  "candidates",
  "usageMetadata",
  "modelVersion",
  "responseId",
]);
const CANDIDATE_KEYS: ReadonlySet<string> = new Set(["content", "finishReason", "index"]);
const USAGE_KEYS: ReadonlySet<string> = new Set([
  "promptTokenCount",
  "candidatesTokenCount",
  "totalTokenCount",
  "cachedContentTokenCount",
  "thoughtsTokenCount",
  "toolUsePromptTokenCount",
]);

/** Parses a Gemini body (answer or stream chunk); a body with `error` or the wrong shape is a 502. */
export function parseGeminiResponse(body: unknown): GeminiResponse {
  if (isRecord(body) && body.error !== undefined) {
    throw upstreamError(upstreamErrorMessage(body.error).text, body);
  }
  const parsed = tryParse(responseSchema, body);
  if (!parsed.ok) {
    throw upstreamError(
      `Gemini upstream sent a body that is not a generateContent response: ${zodProblem(parsed.error)}`,
      body,
    );
  }
  return parsed.data;
}

/** Decodes a non-streamed Gemini answer (the first candidate). */
export function decodeResponse(body: unknown): NeutralResponse {
  const response = parseGeminiResponse(body);
  const id = response.responseId ?? "";
  const candidate = response.candidates?.[0];
  const ids = responseToolIds(id);
  const parts: Part[] = [];
  // Parts the neutral model has no kind for (executableCode, codeExecutionResult) are skipped.
  for (const part of candidate?.content?.parts ?? []) {
    const decoded = decodePart(part, ids);
    if (decoded && decoded.kind !== "toolResult") parts.push(decoded);
  }
  const extra: Record<string, unknown> = { ...splitExtra(response, RESPONSE_KEYS, FORMAT)?.fields };
  const candidateExtra = candidate ? splitExtra(candidate, CANDIDATE_KEYS, FORMAT) : undefined;
  if (candidateExtra) extra.candidates = [candidateExtra.fields];
  const usageExtra = response.usageMetadata
    ? splitExtra(response.usageMetadata, USAGE_KEYS, FORMAT)
    : undefined;
  if (usageExtra) extra.usageMetadata = usageExtra.fields;
  return {
    id,
    model: response.modelVersion ?? "",
    parts,
    finish: responseFinish(response, parts),
    usage: response.usageMetadata ? decodeUsage(response.usageMetadata) : ZERO_USAGE,
    ...(Object.keys(extra).length > 0 ? { extra: { format: FORMAT, fields: extra } } : {}),
  };
}

function responseFinish(response: GeminiResponse, parts: readonly Part[]): Finish {
  const candidate = response.candidates?.[0];
  if (candidate) return decodeFinish(candidate.finishReason, parts.some((part) => part.kind === "toolCall"));
  const blocked = response.promptFeedback?.blockReason;
  if (blocked !== undefined) return { unified: "content_filter", raw: blocked };
  return { unified: "other", raw: null };
}
