import type { ReasoningEffort } from "../../model/mod.ts";

/** thinkingBudget sent for effort "minimal" (the smallest budget every Gemini 2.5 model accepts). */
export const THINKING_BUDGET_MINIMAL = 512;
/** thinkingBudget sent for effort "low". */
export const THINKING_BUDGET_LOW = 1024;
/** thinkingBudget sent for effort "medium". */
export const THINKING_BUDGET_MEDIUM = 8192;
/** thinkingBudget sent for effort "high" and "xhigh" (the Flash ceiling, so every model accepts it). */
export const THINKING_BUDGET_HIGH = 24576;
/** Gemini's "let the model decide" budget. */
export const THINKING_BUDGET_DYNAMIC = -1;

/** The thinkingBudget for an effort level. */
export function budgetForEffort(effort: ReasoningEffort): number {
  switch (effort) {
    case "none":
      return 0;
    case "minimal":
      return THINKING_BUDGET_MINIMAL;
    case "low":
      return THINKING_BUDGET_LOW;
    case "medium":
      return THINKING_BUDGET_MEDIUM;
    case "high":
    case "xhigh":
      return THINKING_BUDGET_HIGH;
  }
}

/** Gemini 3 and later take `thinkingLevel`; a budget there is legacy and maps onto levels coarsely. */
const TAKES_LEVELS = /(?:^|[/-])gemini-(?:[3-9]|\d{2,})(?:[.-]|$)/i;

/** Whether `model` (an upstream model name) is steered by thinkingLevel rather than thinkingBudget. */
export function takesThinkingLevels(model: string): boolean {
  return TAKES_LEVELS.test(model);
}

/** The Gemini 3 thinkingLevel for an effort level (thinking cannot be turned off there). */
export function levelForEffort(effort: ReasoningEffort): string {
  switch (effort) {
    case "none":
    case "minimal":
      return "minimal";
    case "low":
      return "low";
    case "medium":
      return "medium";
    case "high":
    case "xhigh":
      return "high";
  }
}

/** The effort for a Gemini 3 thinkingLevel (case-insensitive); undefined when unknown. */
export function effortForLevel(level: string): ReasoningEffort | undefined {
  switch (level.toLowerCase()) {
    case "minimal":
      return "minimal";
    case "low":
      return "low";
    case "medium":
      return "medium";
    case "high":
      return "high";
    default:
      return undefined;
  }
}
