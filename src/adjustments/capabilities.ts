/** How a model family takes its thinking settings. */
export type ThinkingFormat = "anthropic_budget" | "openai_effort" | "google_budget" | "google_level" | "none";

/** What a model can do; null means unknown, and adjustments never act on an unknown. */
export interface ModelCapabilities {
  readonly vision: boolean | null;
  readonly reasoning: boolean | null;
  readonly thinkingFormat: ThinkingFormat | null;
  readonly contextWindow: number | null;
  /** Largest thinking budget the model accepts. */
  readonly maxThinkingBudget?: number;
  /** False when the model always thinks (a "none" intent becomes the lowest level). */
  readonly thinkingCanDisable?: boolean;
  /** Largest max_tokens the model accepts. */
  readonly maxOutputTokens?: number;
  /** The upstream rejects assistant tool-call turns that lack their reasoning (reasoning_content). */
  readonly echoReasoning?: boolean;
}

/** Everything unknown. */
export const UNKNOWN_CAPABILITIES: ModelCapabilities = {
  vision: null,
  reasoning: null,
  thinkingFormat: null,
  contextWindow: null,
};

type Entry = readonly [RegExp, Partial<ModelCapabilities>];

const CLAUDE_THINKING: Partial<ModelCapabilities> = {
  vision: true,
  reasoning: true,
  thinkingFormat: "anthropic_budget",
  contextWindow: 200_000,
};

/** Model-name patterns, most specific first; the first match wins. Names are lower-cased, unprefixed. */
const TABLE: readonly Entry[] = [
  [/^claude-(?:opus|sonnet|haiku)-\d|^claude-3-7/, CLAUDE_THINKING],
  [/^claude-3/, { vision: true, reasoning: false, thinkingFormat: "none", contextWindow: 200_000 }],
  [/^claude-/, CLAUDE_THINKING],
  [/^gpt-5(?:\.\d+)?-chat/, {
    vision: true,
    reasoning: false,
    thinkingFormat: "none",
    contextWindow: 128_000,
  }],
  [/^gpt-5/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "openai_effort",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
  }],
  [/^gpt-4\.1/, { vision: true, reasoning: false, thinkingFormat: "none", contextWindow: 1_047_576 }],
  [/^gpt-4o/, { vision: true, reasoning: false, thinkingFormat: "none", contextWindow: 128_000 }],
  [/^gpt-4-turbo|^gpt-4-vision/, {
    vision: true,
    reasoning: false,
    thinkingFormat: "none",
    contextWindow: 128_000,
  }],
  [/^gpt-4(?:-\d|$)/, { vision: false, reasoning: false, thinkingFormat: "none", contextWindow: 8_192 }],
  [/^gpt-3\.5/, { vision: false, reasoning: false, thinkingFormat: "none", contextWindow: 16_385 }],
  [/^gpt-oss/, { vision: false, reasoning: true, thinkingFormat: "openai_effort", contextWindow: 131_072 }],
  [/^o1-mini/, {
    vision: false,
    reasoning: true,
    thinkingFormat: "openai_effort",
    contextWindow: 128_000,
    thinkingCanDisable: false,
  }],
  [/^o[134](?:-|$)/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "openai_effort",
    contextWindow: 200_000,
    thinkingCanDisable: false,
  }],
  [/^codex/, { reasoning: true, thinkingFormat: "openai_effort", thinkingCanDisable: false }],
  [/^gemini-[3-9]/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "google_level",
    contextWindow: 1_048_576,
    thinkingCanDisable: false,
  }],
  [/^gemini-2\.5-pro/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "google_budget",
    contextWindow: 1_048_576,
    maxThinkingBudget: 32_768,
    thinkingCanDisable: false,
  }],
  [/^gemini-2\.5-flash/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "google_budget",
    contextWindow: 1_048_576,
    maxThinkingBudget: 24_576,
  }],
  [/^gemini-2\.0-flash-thinking/, {
    vision: true,
    reasoning: true,
    thinkingFormat: "none",
    contextWindow: 1_048_576,
  }],
  [/^gemini-(?:2\.0|1\.5)/, {
    vision: true,
    reasoning: false,
    thinkingFormat: "none",
    contextWindow: 1_048_576,
  }],
  [/^gemini-/, { vision: true }],
  [/^deepseek-(?:reasoner|r1)/, {
    vision: false,
    reasoning: true,
    thinkingFormat: "none",
    contextWindow: 128_000,
    echoReasoning: true,
  }],
  [/^deepseek-chat/, { vision: false, reasoning: false, thinkingFormat: "none", contextWindow: 128_000 }],
  [/^deepseek-v[4-9]|^deepseek-v3\.[1-9]/, {
    vision: false,
    reasoning: true,
    thinkingFormat: "openai_effort",
    echoReasoning: true,
  }],
  [/^deepseek/, { vision: false }],
  [/^(?:kimi|moonshot)/, { echoReasoning: true }],
  [/^llama-?3\.2.*vision|^llama-?4/, { vision: true, reasoning: false, thinkingFormat: "none" }],
  [/^(?:meta-)?llama/, { vision: false, reasoning: false, thinkingFormat: "none" }],
  [/^(?:qwen.*-?vl|qvq)/, { vision: true }],
  [/^(?:qwq|qwen3)/, { vision: false, reasoning: true }],
  [/^qwen-?2/, { vision: false, reasoning: false, thinkingFormat: "none" }],
  [/^pixtral|^mistral-(?:small|medium)-3/, { vision: true }],
  [/^magistral/, { reasoning: true }],
  [/^(?:codestral|devstral|mistral-7b|mixtral|open-mistral)/, {
    vision: false,
    reasoning: false,
    thinkingFormat: "none",
  }],
  [/^grok-4/, { vision: true, reasoning: true, thinkingFormat: "none", contextWindow: 256_000 }],
  [/^grok-3-mini/, { reasoning: true, thinkingFormat: "openai_effort", contextWindow: 131_072 }],
];

/**
 * The bare model name the table matches: lower-cased, without a provider path (`openai/gpt-4o`,
 * `models/gemini-2.5-pro`), a thinking suffix `(high)`, a `[1m]` context marker or a Bedrock-style
 * vendor prefix (`anthropic.claude-…`, `us.anthropic.claude-…`).
 */
export function bareModelName(model: string): string {
  let name = model.toLowerCase().trim();
  name = name.replace(/\([^()]*\)$/, "").replace(/\[[^\]]*\]$/, "");
  name = name.slice(name.lastIndexOf("/") + 1);
  return name.replace(/^(?:[a-z]{2}\.)?(?:anthropic|meta|mistral|amazon|cohere|deepseek|qwen)\./, "");
}

// Table lookups run a list of patterns; their results are kept per model name. The cache is bounded
// because model names come from clients.
const tableResults = new Map<string, ModelCapabilities>();
const MAX_CACHED_MODELS = 4096;

/** Capabilities of `model` from the built-in table, with config overrides (per provider model) on top. */
export function capabilitiesFor(
  model: string,
  overrides: Partial<ModelCapabilities> = {},
): ModelCapabilities {
  let base = tableResults.get(model);
  if (base === undefined) {
    const name = bareModelName(model);
    base = { ...UNKNOWN_CAPABILITIES, ...TABLE.find(([pattern]) => pattern.test(name))?.[1] };
    if (tableResults.size >= MAX_CACHED_MODELS) tableResults.clear();
    tableResults.set(model, base);
  }
  let defined: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (defined ??= {})[key] = value;
  }
  return defined === null ? base : { ...base, ...defined };
}
