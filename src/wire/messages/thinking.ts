import type { GatewayWarning, NeutralRequest, ReasoningEffort, ReasoningIntent } from "../../model/mod.ts";
import { warning } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";
import { thinkingConfigSchema } from "./schema.ts";
import type { OutputConfig, ThinkingConfig } from "./schema.ts";

/** max_tokens sent when the client gave none; the messages API requires the field. */
export const DEFAULT_MAX_TOKENS = 4096;
/** The smallest thinking budget the messages API accepts. */
export const MIN_THINKING_BUDGET = 1024;
/** Thinking budgets for effort levels, used when a client from another format gives only a level. */
export const EFFORT_BUDGETS: Readonly<Record<Exclude<ReasoningEffort, "none">, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};
/** Adaptive thinking without an explicit effort runs at the API's default effort. */
const ADAPTIVE_DEFAULT_EFFORT: ReasoningEffort = "high";

/**
 * Claude 4.6 and later think adaptively, steered by `output_config.effort`; a fixed budget is the legacy form
 * there. (Bedrock and Vertex spell the ids with a vendor prefix or an `@` date.)
 */
const ADAPTIVE_MODELS = /(?:^|[/.-])claude-(?:opus|sonnet)-(?:4-[6-9]|[5-9])(?:[-.@]|$)/i;

/** Whether `model` (an upstream model name) takes adaptive thinking with an effort. */
export function takesAdaptiveThinking(model: string): boolean {
  return ADAPTIVE_MODELS.test(model);
}

/** The `output_config.effort` for a neutral effort, and whether it is the one asked for. */
function adaptiveEffort(effort: Exclude<ReasoningEffort, "none">): { effort: string; exact: boolean } {
  switch (effort) {
    case "minimal":
      return { effort: "low", exact: false };
    case "xhigh":
      // "max" is not offered by every adaptive model; "high" is.
      return { effort: "high", exact: false };
    default:
      return { effort, exact: true };
  }
}

function effortOf(value: string | null | undefined): ReasoningEffort | undefined {
  switch (value) {
    case "low":
    case "medium":
    case "high":
    case "xhigh":
      return value;
    case "max":
      return "xhigh";
    default:
      return undefined;
  }
}

/**
 * `thinking` (+ `output_config.effort`) → neutral reasoning intent. Effort is only read with thinking
 * on: without it the model does not reason, and other formats would read a level as "turn it on".
 */
export function decodeThinking(
  thinking: ThinkingConfig | null | undefined,
  outputConfig: OutputConfig | null | undefined,
): ReasoningIntent | undefined {
  if (!thinking) return undefined;
  const effort = effortOf(outputConfig?.effort);
  switch (thinking.type) {
    case "disabled":
      return { effort: "none" };
    case "enabled":
      return { budgetTokens: thinking.budget_tokens, ...(effort ? { effort } : {}) };
    case "adaptive":
      return { effort: effort ?? ADAPTIVE_DEFAULT_EFFORT };
  }
}

/** The thinking settings to send, the max_tokens that fits them, and what had to change. */
export interface ThinkingPlan {
  readonly thinking?: Record<string, unknown>;
  /** `output_config` fields to set (adaptive thinking's effort). */
  readonly outputConfig?: Record<string, unknown>;
  readonly maxTokens: number;
  readonly warnings: readonly GatewayWarning[];
}

function sameIntent(a: ReasoningIntent | undefined, b: ReasoningIntent | undefined): boolean {
  return a?.effort === b?.effort && a?.budgetTokens === b?.budgetTokens &&
    a?.includeThoughts === b?.includeThoughts;
}

function budgetFor(reasoning: ReasoningIntent | undefined, warnings: GatewayWarning[]): number | undefined {
  if (!reasoning || reasoning.effort === "none") return undefined;
  if (reasoning.budgetTokens !== undefined) {
    // A zero budget is how Gemini clients switch thinking off.
    if (reasoning.budgetTokens <= 0) return undefined;
    if (reasoning.budgetTokens < MIN_THINKING_BUDGET) {
      warnings.push(warning(
        "changed_field:thinking_budget",
        `thinking budget ${reasoning.budgetTokens} raised to ${MIN_THINKING_BUDGET}, the messages API minimum`,
        { from: reasoning.budgetTokens, to: MIN_THINKING_BUDGET },
      ));
      return MIN_THINKING_BUDGET;
    }
    return reasoning.budgetTokens;
  }
  if (reasoning.effort) return EFFORT_BUDGETS[reasoning.effort];
  return reasoning.includeThoughts ? EFFORT_BUDGETS.medium : undefined;
}

/**
 * Adaptive thinking for an effort-only intent on a model that takes it: the effort as `output_config.effort`,
 * and, when the client named no max_tokens, the room the same effort's budget would have had.
 */
function planAdaptive(request: NeutralRequest, warnings: GatewayWarning[]): ThinkingPlan | undefined {
  const intent = request.reasoning;
  if (!intent || intent.budgetTokens !== undefined || !intent.effort || intent.effort === "none") {
    return undefined;
  }
  const { effort, exact } = adaptiveEffort(intent.effort);
  if (!exact) {
    warnings.push(warning(
      "changed_field:reasoning_effort",
      `reasoning effort "${intent.effort}" sent as "${effort}", the nearest adaptive-thinking effort`,
      { from: intent.effort, to: effort },
    ));
  }
  const maxTokens = request.params.maxTokens ?? DEFAULT_MAX_TOKENS + EFFORT_BUDGETS[intent.effort];
  return { thinking: { type: "adaptive" }, outputConfig: { effort }, maxTokens, warnings };
}

/**
 * Plans `thinking` and `max_tokens` for a messages upstream. The client's own `thinking` object is
 * sent verbatim while it still means what the request asks for (adaptive, display options survive);
 * otherwise an effort becomes adaptive thinking on a model that takes it, or a budget. max_tokens must
 * exceed a budget, so it grows by the budget when it would not.
 */
export function planThinking(
  request: NeutralRequest,
  rawThinking: unknown,
  rawOutput: unknown,
  upstreamModel = "",
): ThinkingPlan {
  const warnings: GatewayWarning[] = [];
  const requested = request.params.maxTokens ?? DEFAULT_MAX_TOKENS;
  const raw = rawThinking === undefined ? undefined : thinkingConfigSchema.safeParse(rawThinking);
  let thinking: Record<string, unknown> | undefined;
  let budget: number | undefined;
  if (raw?.success && isRecord(rawThinking)) {
    const output = isRecord(rawOutput) && typeof rawOutput.effort === "string"
      ? { effort: rawOutput.effort }
      : undefined;
    if (sameIntent(decodeThinking(raw.data, output), request.reasoning)) {
      thinking = rawThinking;
      budget = raw.data.type === "enabled" ? raw.data.budget_tokens : undefined;
    }
  }
  if (!thinking && takesAdaptiveThinking(upstreamModel)) {
    const adaptive = planAdaptive(request, warnings);
    if (adaptive) return adaptive;
  }
  if (!thinking) {
    budget = budgetFor(request.reasoning, warnings);
    if (budget !== undefined) thinking = { type: "enabled", budget_tokens: budget };
  }
  let maxTokens = requested;
  if (budget !== undefined && requested <= budget) {
    maxTokens = budget + requested;
    warnings.push(warning(
      "changed_field:max_tokens",
      `max_tokens raised from ${requested} to ${maxTokens} to exceed the thinking budget ${budget}`,
      { from: requested, to: maxTokens },
    ));
  }
  return { ...(thinking ? { thinking } : {}), maxTokens, warnings };
}
