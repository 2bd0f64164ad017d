/**
 * The inventory's provider catalog (data): where a key of each known upstream is checked, how it
 * authenticates, and which cheap model the usability probe asks for. Keys of a provider the catalog does
 * not know are checked with the protocol of the gateway provider row whose prefix they belong to.
 */
import type { ApiType } from "../config/api_types.ts";
import type { CreditSource } from "./credit_endpoints.ts";

/** One known upstream. `apiType` picks the check protocol; `baseUrl` follows the gateway's preset rules. */
export interface CatalogProvider {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  readonly apiType: ApiType;
  /** A model the 1-token probe uses when the upstream lists it (or lists nothing). */
  readonly probeModel?: string;
  /** The key is an OAuth credential blob, checked by refreshing it rather than by a model list. */
  readonly oauth?: boolean;
  /** The endpoint a check reads the key's credit from (credit_endpoints.ts), where the upstream has one. */
  readonly credit?: CreditSource;
}

const entries: readonly CatalogProvider[] = [
  {
    id: "openai",
    name: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    apiType: "chat_compat",
    probeModel: "gpt-4.1-nano",
  },
  {
    id: "anthropic",
    name: "Anthropic",
    baseUrl: "https://api.anthropic.com",
    apiType: "messages_native",
    probeModel: "claude-haiku-4-5-20251001",
  },
  {
    id: "openrouter",
    name: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    apiType: "chat_compat",
    credit: "openrouter_key",
  },
  {
    id: "google",
    name: "Google AI Studio",
    baseUrl: "https://generativelanguage.googleapis.com",
    apiType: "generate_native",
    probeModel: "gemini-2.5-flash-lite",
  },
  {
    id: "groq",
    name: "Groq",
    baseUrl: "https://api.groq.com/openai/v1",
    apiType: "chat_compat",
    probeModel: "llama-3.1-8b-instant",
  },
  { id: "together", name: "Together", baseUrl: "https://api.together.xyz/v1", apiType: "chat_compat" },
  {
    id: "mistral",
    name: "Mistral",
    baseUrl: "https://api.mistral.ai/v1",
    apiType: "chat_compat",
    probeModel: "mistral-small-latest",
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    apiType: "chat_compat",
    probeModel: "deepseek-chat",
    credit: "deepseek_balance",
  },
  { id: "xai", name: "xAI", baseUrl: "https://api.x.ai/v1", apiType: "chat_compat" },
  { id: "cerebras", name: "Cerebras", baseUrl: "https://api.cerebras.ai/v1", apiType: "chat_compat" },
  {
    id: "fireworks",
    name: "Fireworks",
    baseUrl: "https://api.fireworks.ai/inference/v1",
    apiType: "chat_compat",
  },
  {
    id: "perplexity",
    name: "Perplexity",
    baseUrl: "https://api.perplexity.ai",
    apiType: "chat_compat",
    probeModel: "sonar",
  },
  { id: "nvidia", name: "NVIDIA", baseUrl: "https://integrate.api.nvidia.com/v1", apiType: "chat_compat" },
  {
    id: "huggingface",
    name: "Hugging Face",
    baseUrl: "https://router.huggingface.co/v1",
    apiType: "chat_compat",
  },
  {
    id: "moonshot",
    name: "Moonshot",
    baseUrl: "https://api.moonshot.ai/v1",
    apiType: "chat_compat",
    credit: "moonshot_balance",
  },
  {
    id: "zhipu",
    name: "Zhipu",
    baseUrl: "https://open.bigmodel.cn/api/paas/v4",
    apiType: "chat_compat",
    probeModel: "glm-4-flash",
  },
  { id: "minimax", name: "MiniMax", baseUrl: "https://api.minimax.io/v1", apiType: "chat_compat" },
  {
    id: "xiaomi_tokenplan",
    name: "Xiaomi token plan",
    baseUrl: "https://token-plan-sgp.xiaomimimo.com/v1",
    apiType: "chat_compat",
  },
  { id: "custom", name: "Custom (OpenAI-compatible)", baseUrl: "", apiType: "chat_compat" },
  {
    id: "codex",
    name: "ChatGPT / Codex",
    baseUrl: "https://chatgpt.com/backend-api/codex",
    apiType: "responses_oauth",
    oauth: true,
  },
  {
    id: "antigravity",
    name: "Antigravity",
    baseUrl: "https://cloudcode-pa.googleapis.com",
    apiType: "cloud_assistant_oauth",
    oauth: true,
  },
  {
    id: "kiro",
    name: "Kiro",
    baseUrl: "https://runtime.us-east-1.kiro.dev",
    apiType: "cli_oauth",
    oauth: true,
  },
];

/** Every catalog provider by id. */
export const CATALOG: ReadonlyMap<string, CatalogProvider> = new Map(entries.map((e) => [e.id, e]));

/** The provider id of keys whose provider nobody could tell. */
export const UNIDENTIFIED = "unidentified";

/** Gateway prefixes whose inventory provider has another id (origin catalog bridges). */
const PREFIX_BRIDGES: Readonly<Record<string, string>> = {
  gemini: "google",
  qwen: "dashscope",
  vercel: "vercel-ai-gateway",
  ark: "volcengine-ark",
  xmtp: "xiaomi_tokenplan",
};

/** The inventory provider id the keys of a gateway prefix are filed under. */
export function inventoryIdForPrefix(prefix: string): string {
  return Object.hasOwn(PREFIX_BRIDGES, prefix) ? PREFIX_BRIDGES[prefix] : prefix;
}

/** Prefix rules, most specific first: only a guess, no key leaves the gateway to make it. */
const KEY_PREFIXES: readonly (readonly [RegExp, string])[] = [
  [/^sk-or-v1-/, "openrouter"],
  [/^sk-ant-/, "anthropic"],
  [/^nvapi-/, "nvidia"],
  [/^sk-proj-/, "openai"],
  [/^gsk_/, "groq"],
  [/^xai-/, "xai"],
  [/^hf_/, "huggingface"],
  [/^pplx-/, "perplexity"],
  [/^fw_/, "fireworks"],
  [/^sk-cp-/, "minimax"],
  [/^tp-/, "xiaomi_tokenplan"],
  [/^AIza[0-9A-Za-z_-]{30,}$/, "google"],
  [/^[0-9a-f]{32}\.[0-9A-Za-z]{16}$/, "zhipu"],
  [/^sk-[A-Za-z0-9_-]{20,}$/, "openai"],
];

/** The provider a key's shape points to, or null when its shape says nothing. */
export function detectProvider(key: string): string | null {
  for (const [pattern, id] of KEY_PREFIXES) if (pattern.test(key)) return id;
  return null;
}
