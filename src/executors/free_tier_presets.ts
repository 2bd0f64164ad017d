/**
 * Free hosted providers that need no key (api_type `free_tier`): the dashboard offers these, and picking one
 * fills the provider's base URL and models. Data only; calls go through the chat-compatible preset.
 */
export interface FreeTierPreset {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  /** The free models at the time of writing; Fetch Models reads the current list. */
  readonly models: readonly string[];
}

/** Every free-tier preset. */
export const FREE_TIER_PRESETS: readonly FreeTierPreset[] = [
  {
    id: "opencode_zen",
    label: "OpenCode Zen (free models)",
    baseUrl: "https://opencode.ai/zen/v1",
    models: [
      "big-pickle",
      "deepseek-v4-flash-free",
      "qwen3.6-plus-free",
      "minimax-m3-free",
      "mimo-v2.5-free",
    ],
  },
];
