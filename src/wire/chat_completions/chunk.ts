import { isRecord } from "../shared/mod.ts";

type Json = Record<string, unknown>;

/** The choice with index 0 of a chunk (or its first choice); n > 1 streams are metered on choice 0. */
export function primaryChoice(chunk: Json): Json | undefined {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return undefined;
  let first: Json | undefined;
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    if (choice.index === 0 || choice.index === undefined) return choice;
    first ??= choice;
  }
  return first;
}

/** A choice's delta; tolerates upstreams that stream a `message` object instead. */
export function deltaOf(choice: Json): Json {
  if (isRecord(choice.delta)) return choice.delta;
  return isRecord(choice.message) ? choice.message : {};
}

/** The finish reason of a choice: `finish_reason`, or the camelCase one Gemini's compat layer sends. */
export function finishReasonOf(choice: Json): string | undefined {
  const raw = choice.finish_reason ?? choice.finishReason;
  return typeof raw === "string" && raw !== "" ? raw : undefined;
}

/** Reasoning text of a delta: DeepSeek's `reasoning_content` or OpenRouter's `reasoning`. */
export function reasoningOf(delta: Json): string {
  if (typeof delta.reasoning_content === "string" && delta.reasoning_content !== "") {
    return delta.reasoning_content;
  }
  return typeof delta.reasoning === "string" ? delta.reasoning : "";
}
