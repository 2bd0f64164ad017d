import type { ReasoningEffort, ReasoningIntent } from "../../model/mod.ts";
import type { ThinkValue } from "./schema.ts";

/** Ollama `think` → reasoning intent. `true` asks for thoughts without naming a level. */
export function decodeThink(think: ThinkValue | null | undefined): ReasoningIntent | undefined {
  if (think === undefined || think === null) return undefined;
  if (think === true) return { includeThoughts: true };
  if (think === false) return { effort: "none", includeThoughts: false };
  return { effort: think, includeThoughts: true };
}

function levelFor(effort: ReasoningEffort): ThinkValue {
  switch (effort) {
    case "none":
      return false;
    case "minimal":
    case "low":
      return "low";
    case "medium":
      return "medium";
    case "high":
    case "xhigh":
      return "high";
  }
}

/** Budget thresholds shared with the other formats' level ↔ budget mapping. */
function levelForBudget(budget: number): ThinkValue {
  if (budget <= 0) return false;
  if (budget <= 4096) return "low";
  if (budget <= 16384) return "medium";
  return "high";
}

/** Reasoning intent → Ollama `think`; undefined leaves the runner's default. */
export function encodeThink(intent: ReasoningIntent | undefined): ThinkValue | undefined {
  if (!intent) return undefined;
  if (intent.effort !== undefined) return levelFor(intent.effort);
  if (intent.budgetTokens !== undefined) return levelForBudget(intent.budgetTokens);
  return intent.includeThoughts;
}
