import type { Finish, UnifiedFinish } from "../../model/mod.ts";

/** finishReason values of the Gemini API; a raw value in this set is echoed to Gemini clients as is. */
const GEMINI_FINISH_REASONS: ReadonlySet<string> = new Set([
  "FINISH_REASON_UNSPECIFIED",
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "LANGUAGE",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "MALFORMED_FUNCTION_CALL",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_OTHER",
  "IMAGE_RECITATION",
  "NO_IMAGE",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "MISSING_THOUGHT_SIGNATURE",
]);

const CONTENT_FILTER_REASONS: ReadonlySet<string> = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
]);

/** Normalises a Gemini finishReason; STOP becomes tool_calls when the answer called a function. */
export function decodeFinish(raw: string | undefined, sawToolCall: boolean): Finish {
  if (raw === undefined) return { unified: sawToolCall ? "tool_calls" : "stop", raw: null };
  return { unified: unifiedFor(raw, sawToolCall), raw };
}

function unifiedFor(raw: string, sawToolCall: boolean): UnifiedFinish {
  if (raw === "STOP") return sawToolCall ? "tool_calls" : "stop";
  if (raw === "MAX_TOKENS") return "length";
  if (CONTENT_FILTER_REASONS.has(raw)) return "content_filter";
  if (raw === "MALFORMED_FUNCTION_CALL") return "error";
  return "other";
}

/** The finishReason a Gemini client gets: the raw value when it is already Gemini's, else mapped. */
export function encodeFinish(finish: Finish): string {
  if (finish.raw !== null && GEMINI_FINISH_REASONS.has(finish.raw)) return finish.raw;
  switch (finish.unified) {
    case "stop":
    case "tool_calls":
      return "STOP";
    case "length":
      return "MAX_TOKENS";
    case "content_filter":
      return "SAFETY";
    case "error":
    case "other":
      return "OTHER";
  }
}
