import type { Finish } from "../../model/mod.ts";

/** Ollama `done_reason` → neutral finish; "stop" after tool calls is a tool_calls finish. */
export function finishFromDoneReason(doneReason: string | null | undefined, sawToolCalls: boolean): Finish {
  const raw = doneReason ?? null;
  switch (raw) {
    case null:
    case "":
    case "stop":
      return { unified: sawToolCalls ? "tool_calls" : "stop", raw };
    case "length":
      return { unified: "length", raw };
    default:
      return { unified: "other", raw };
  }
}

/** Neutral finish → Ollama `done_reason` (Ollama has no tool_calls reason; it says "stop"). */
export function doneReasonFor(finish: Finish | undefined): string {
  if (!finish) return "stop";
  switch (finish.unified) {
    case "stop":
    case "tool_calls":
      return "stop";
    case "length":
      return "length";
    case "content_filter":
    case "error":
    case "other":
      return finish.raw ?? "stop";
  }
}
