import type { ReasoningEffort, ReasoningIntent } from "../model/mod.ts";

const LEVELS: ReadonlySet<string> = new Set(["none", "minimal", "low", "medium", "high", "xhigh"]);

function intentOf(value: string): ReasoningIntent | undefined {
  const v = value.trim().toLowerCase();
  if (/^\d+$/.test(v)) return { budgetTokens: Number(v) };
  if (v === "off") return { effort: "none" };
  if (v === "max") return { effort: "xhigh" };
  // "auto": think, at whatever depth the target chooses by default.
  if (v === "auto") return { includeThoughts: true };
  return LEVELS.has(v) ? { effort: v as ReasoningEffort } : undefined;
}

/**
 * Splits a trailing thinking suffix off a model string: `x/claude-sonnet-4(high)` →
 * `{model: "x/claude-sonnet-4", intent: {effort: "high"}}`, `(8192)` → a token budget. Accepts
 * none | off | minimal | low | medium | high | xhigh | max | auto | digits. Anything else is left in
 * place (it may be part of a real model name) and yields no intent.
 */
export function parseThinkingSuffix(model: string): { model: string; intent?: ReasoningIntent } {
  if (!model.endsWith(")")) return { model };
  const match = /^(.*\S)\(([^()]*)\)$/.exec(model);
  if (!match) return { model };
  const intent = intentOf(match[2]);
  return intent ? { model: match[1], intent } : { model };
}
