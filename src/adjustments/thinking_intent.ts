import type {
  GatewayWarning,
  NeutralRequest,
  ReasoningEffort,
  ReasoningIntent,
  UpstreamFormat,
} from "../model/mod.ts";
import { warning } from "../model/mod.ts";
import type { ThinkingFormat } from "./capabilities.ts";
import type { AdjustTarget } from "./target.ts";

/** The smallest thinking budget the messages API accepts. */
export const ANTHROPIC_MIN_BUDGET = 1024;

/** The thinking format a wire format implies when the model table does not say. */
function formatForWire(format: UpstreamFormat): ThinkingFormat | null {
  switch (format) {
    case "messages":
      return "anthropic_budget";
    case "generate_content":
      return "google_budget";
    case "chat_completions":
    case "responses":
      return "openai_effort";
    // The local runner's `think` flag is handled by its codec; the cloud assistant takes no thinking setting.
    case "local_runner":
    case "cloud_assistant":
      return null;
  }
}

/** The effort level a token budget corresponds to. */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= 0) return "none";
  if (budget <= 768) return "minimal";
  if (budget <= 2048) return "low";
  if (budget <= 16384) return "medium";
  if (budget <= 28672) return "high";
  return "xhigh";
}

function same(a: ReasoningIntent, b: ReasoningIntent): boolean {
  return a.effort === b.effort && a.budgetTokens === b.budgetTokens &&
    a.includeThoughts === b.includeThoughts;
}

function withIntent(request: NeutralRequest, intent: ReasoningIntent | undefined): NeutralRequest {
  if (intent === undefined) {
    if (request.reasoning === undefined) return request;
    const { reasoning: _, ...rest } = request;
    return rest;
  }
  return request.reasoning && same(request.reasoning, intent) ? request : { ...request, reasoning: intent };
}

function withoutBudget(intent: ReasoningIntent, effort: ReasoningEffort): ReasoningIntent {
  return {
    effort,
    ...(intent.includeThoughts !== undefined ? { includeThoughts: intent.includeThoughts } : {}),
  };
}

type Warn = (warning: GatewayWarning) => void;

/** A model that cannot stop thinking (or think harder) runs at the nearest effort it accepts: say so. */
function effortChanged(warn: Warn, target: AdjustTarget, from: ReasoningEffort, to: ReasoningEffort): void {
  warn(warning(
    "changed_field:reasoning_effort",
    `reasoning effort "${from}" sent as "${to}", the nearest level ${target.model} accepts`,
    { from, to },
  ));
}

function budgetChanged(warn: Warn, target: AdjustTarget, from: number, to: number): void {
  const why = to > from ? "the upstream's minimum" : `the largest ${target.model} accepts`;
  warn(
    warning("changed_field:thinking_budget", `thinking budget ${from} sent as ${to}, ${why}`, { from, to }),
  );
}

function anthropic(
  request: NeutralRequest,
  intent: ReasoningIntent,
  target: AdjustTarget,
  warn: Warn,
): NeutralRequest {
  // Effort-only intents are left to the codec, which keeps a client's own adaptive thinking verbatim.
  if (intent.budgetTokens === undefined) return withIntent(request, intent);
  if (intent.budgetTokens <= 0) {
    if (target.capabilities.thinkingCanDisable !== false) return withIntent(request, { effort: "none" });
    effortChanged(warn, target, "none", "low");
    return withIntent(request, { effort: "low" });
  }
  let budget = Math.max(intent.budgetTokens, ANTHROPIC_MIN_BUDGET);
  const cap = target.capabilities.maxThinkingBudget;
  if (cap !== undefined) budget = Math.min(budget, cap);
  let params = request.params;
  const requested = params.maxTokens;
  // max_tokens covers thinking and answer; the client's value was meant for the answer.
  if (requested !== undefined && requested <= budget) {
    let maxTokens = budget + requested;
    const ceiling = target.capabilities.maxOutputTokens;
    if (ceiling !== undefined && maxTokens > ceiling) {
      maxTokens = ceiling;
      budget = Math.max(ANTHROPIC_MIN_BUDGET, Math.min(budget, ceiling - Math.min(requested, ceiling / 2)));
    }
    params = { ...params, maxTokens };
    warn(warning(
      "changed_field:max_tokens",
      `max_tokens raised from ${requested} to ${maxTokens} to exceed the thinking budget ${budget}`,
      { from: requested, to: maxTokens },
    ));
  }
  if (budget !== intent.budgetTokens) budgetChanged(warn, target, intent.budgetTokens, budget);
  const next = withIntent(request, { ...intent, budgetTokens: budget });
  return params === request.params ? next : { ...next, params };
}

function googleBudget(
  request: NeutralRequest,
  intent: ReasoningIntent,
  target: AdjustTarget,
  warn: Warn,
): NeutralRequest {
  const caps = target.capabilities;
  const off = intent.effort === "none" || intent.budgetTokens === 0;
  if (off && caps.thinkingCanDisable === false) {
    effortChanged(warn, target, "none", "minimal");
    return withIntent(request, withoutBudget(intent, "minimal"));
  }
  // -1 is Gemini's "dynamic" budget and has no cap.
  if (intent.budgetTokens === undefined || intent.budgetTokens <= 0) return withIntent(request, intent);
  const cap = caps.maxThinkingBudget;
  if (cap === undefined || intent.budgetTokens <= cap) return withIntent(request, intent);
  budgetChanged(warn, target, intent.budgetTokens, cap);
  return withIntent(request, { ...intent, budgetTokens: cap });
}

function levelled(
  request: NeutralRequest,
  intent: ReasoningIntent,
  target: AdjustTarget,
  floor: ReasoningEffort,
  ceiling: ReasoningEffort | undefined,
  warn: Warn,
): NeutralRequest {
  const budget = intent.effort === undefined ? intent.budgetTokens : undefined;
  const asked = intent.effort ?? (budget !== undefined ? effortForBudget(budget) : undefined);
  if (asked === undefined) return withIntent(request, intent);
  let effort = asked;
  if (effort === "none" && target.capabilities.thinkingCanDisable === false) effort = floor;
  if (ceiling !== undefined && effort === "xhigh") effort = ceiling;
  if (budget !== undefined) {
    warn(warning(
      "changed_field:reasoning_budget",
      `reasoning budget of ${budget} tokens expressed as reasoning effort "${effort}"`,
      { budget, effort },
    ));
  } else if (effort !== asked) effortChanged(warn, target, asked, effort);
  return withIntent(request, withoutBudget(intent, effort));
}

/**
 * Fits the request's reasoning intent to the target model: dropped when the model does not reason (or
 * takes no thinking settings), budgets clamped for Anthropic (≥ 1024, below max_tokens, under the
 * model's cap) and Google, budgets turned into levels for OpenAI efforts and Gemini 3 levels, and
 * "none" raised to the lowest level for models that cannot stop thinking. Codecs then write the
 * intent in their own fields.
 */
export function applyThinkingIntent(
  request: NeutralRequest,
  target: AdjustTarget,
  warn: Warn = () => {},
): NeutralRequest {
  const intent = request.reasoning;
  if (!intent) return request;
  const format = target.capabilities.reasoning === false
    ? "none"
    : target.capabilities.thinkingFormat ?? formatForWire(target.upstreamFormat);
  if (format === null) return request;
  switch (format) {
    case "none":
      // Asking a model that does not reason not to reason loses nothing.
      if (intent.effort !== "none" && intent.budgetTokens !== 0) {
        warn(warning(
          "dropped_field:reasoning",
          `reasoning settings dropped: ${target.model} does not reason or takes no reasoning settings`,
        ));
      }
      return withIntent(request, undefined);
    case "anthropic_budget":
      return anthropic(request, intent, target, warn);
    case "google_budget":
      return googleBudget(request, intent, target, warn);
    case "google_level":
      return levelled(request, intent, target, "minimal", "high", warn);
    case "openai_effort":
      return levelled(request, intent, target, "low", undefined, warn);
  }
}
