import { splitExtra } from "../../model/mod.ts";
import type { Extra, NeutralResponse, Part, TextPart, ToolCallPart } from "../../model/mod.ts";
import { isRecord, tryParse, zodProblem } from "../shared/mod.ts";
import { upstreamError, upstreamErrorInfo } from "./errors.ts";
import { decodeStopReason } from "./finish.ts";
import { responseSchema } from "./schema.ts";
import type { BlockHead } from "./schema.ts";
import { foldUsage, readBuckets, USAGE_KEYS } from "./usage.ts";

const FORMAT = "messages";
const RESPONSE_KEYS = new Set(["id", "type", "role", "model", "content", "stop_reason", "usage"]);
const TEXT_KEYS = new Set(["type", "text"]);
const TOOL_USE_KEYS = new Set(["type", "id", "name", "input"]);

/** The key under which response extra keeps unmapped usage fields (cache_creation details, service_tier…). */
export const USAGE_EXTRA_KEY = "usage";

function withExtra<T extends object>(part: T, extra: Extra | undefined): T {
  return extra ? { ...part, extra } : part;
}

/**
 * One answer block → a neutral part. Server-tool blocks (server_tool_use, web_search_tool_result…)
 * have no neutral form and no other format can show them, so they are skipped.
 */
export function responsePart(block: BlockHead): Part | undefined {
  switch (block.type) {
    case "text":
      return typeof block.text === "string"
        ? withExtra<TextPart>({ kind: "text", text: block.text }, splitExtra(block, TEXT_KEYS, FORMAT))
        : undefined;
    case "tool_use":
      return withExtra<ToolCallPart>({
        kind: "toolCall",
        id: typeof block.id === "string" ? block.id : "",
        name: typeof block.name === "string" ? block.name : "",
        arguments: JSON.stringify(block.input ?? {}),
      }, splitExtra(block, TOOL_USE_KEYS, FORMAT));
    case "thinking": {
      const text = typeof block.thinking === "string" ? block.thinking : "";
      const signature = typeof block.signature === "string" ? block.signature : "";
      return signature
        ? { kind: "reasoning", text, signature, family: "anthropic" }
        : { kind: "reasoning", text };
    }
    case "redacted_thinking":
      return typeof block.data === "string"
        ? { kind: "reasoning", text: "", redactedData: block.data, family: "anthropic" }
        : undefined;
    default:
      return undefined;
  }
}

/** An upstream messages answer → neutral; an error body or anything else is a 502. */
export function decodeResponse(body: unknown): NeutralResponse {
  if (isRecord(body) && body.type === "error") {
    throw upstreamError(upstreamErrorInfo(body).message, body);
  }
  const parsed = tryParse(responseSchema, body);
  if (!parsed.ok) {
    throw upstreamError(`upstream body is not a messages response: ${zodProblem(parsed.error)}`, body);
  }
  const answer = parsed.data;
  const parts: Part[] = [];
  for (const block of answer.content) {
    const part = responsePart(block);
    if (part) parts.push(part);
  }
  const fields: Record<string, unknown> = { ...splitExtra(answer, RESPONSE_KEYS, FORMAT)?.fields };
  const usageExtra = answer.usage ? splitExtra(answer.usage, USAGE_KEYS, FORMAT) : undefined;
  if (usageExtra) fields[USAGE_EXTRA_KEY] = usageExtra.fields;
  return {
    id: answer.id,
    model: answer.model ?? "",
    parts,
    finish: decodeStopReason(answer.stop_reason),
    usage: foldUsage(readBuckets(answer.usage)),
    ...(Object.keys(fields).length > 0 ? { extra: { format: FORMAT, fields } } : {}),
  };
}
