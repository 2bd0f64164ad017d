import type { Usage } from "../../model/mod.ts";
import { argumentsObject } from "../shared/mod.ts";

/** Ollama's `created_at`: an ISO-8601 UTC timestamp from the caller's clock (Unix seconds). */
export function createdAt(now: number): string {
  return new Date(now * 1000).toISOString();
}

/** A tool call in Ollama's wire shape: arguments as an object, never JSON text. */
export function wireToolCall(name: string, argumentsJson: string): Record<string, unknown> {
  return { function: { name, arguments: argumentsObject(argumentsJson) } };
}

/** The timing and count fields of a final answer; the gateway does not time the runner, so durations are 0. */
export function finalCounts(usage: Usage | undefined): Record<string, number> {
  return {
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: usage?.inputTotal ?? 0,
    prompt_eval_duration: 0,
    eval_count: usage?.output ?? 0,
    eval_duration: 0,
  };
}
