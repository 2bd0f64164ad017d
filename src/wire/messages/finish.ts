import type { Finish } from "../../model/mod.ts";

/** Every stop_reason the messages API documents. */
const STOP_REASONS: ReadonlySet<string> = new Set([
  "end_turn",
  "stop_sequence",
  "max_tokens",
  "model_context_window_exceeded",
  "tool_use",
  "refusal",
  "pause_turn",
]);

/** An upstream stop_reason → neutral finish, the raw value kept. */
export function decodeStopReason(raw: string | null | undefined): Finish {
  switch (raw) {
    case undefined:
    case null:
      return { unified: "stop", raw: null };
    case "end_turn":
    case "stop_sequence":
      return { unified: "stop", raw };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { unified: "length", raw };
    case "tool_use":
      return { unified: "tool_calls", raw };
    case "refusal":
      return { unified: "content_filter", raw };
    default:
      return { unified: "other", raw };
  }
}

/**
 * Neutral finish → stop_reason. A raw value that is already a messages stop_reason and still agrees
 * with the unified one is kept (pause_turn, stop_sequence survive). A plain stop while tool calls were
 * produced becomes tool_use: some upstreams say STOP after a function call, and agent loops wait for
 * tool_use before running tools.
 */
export function encodeStopReason(finish: Finish | undefined, hasToolCalls: boolean): string {
  if (!finish) return hasToolCalls ? "tool_use" : "end_turn";
  if (finish.raw !== null && STOP_REASONS.has(finish.raw)) {
    if (decodeStopReason(finish.raw).unified === finish.unified) return finish.raw;
  }
  switch (finish.unified) {
    case "stop":
      return hasToolCalls ? "tool_use" : "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
      return "tool_use";
    case "content_filter":
      return "refusal";
    case "error":
    case "other":
      return "end_turn";
  }
}
