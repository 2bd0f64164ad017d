/**
 * Vendor presets of the Add-provider form, as data: picking one fills the provider kind (which wire format
 * and auth the gateway uses), the base URL, how it authenticates and a few suggested models. Fetch Models
 * reads a vendor's current list; the suggestions only save a round trip. Local runners default to their
 * usual loopback port.
 */
import type { ApiType } from "../../config/api_types.ts";

/** How a preset's provider authenticates: a pasted API key, no key, or a stored sign-in (Connect). */
export type AuthStyle = "api_key" | "none" | "oauth";

/** One vendor the form offers by name. */
export interface VendorPreset {
  readonly id: string;
  readonly vendor: string;
  readonly apiType: ApiType;
  /** Empty: the kind's own default (subscription kinds find their hosts from the credential). */
  readonly baseUrl: string;
  readonly auth: AuthStyle;
  /** A prefix to start from (clients ask for `<prefix>/<model>`). */
  readonly prefix: string;
  readonly models: readonly string[];
}

/** Every vendor preset, hosted API vendors first, then local runners, then subscriptions. */
export const VENDOR_PRESETS: readonly VendorPreset[] = [
  {
    id: "openai",
    vendor: "OpenAI",
    apiType: "chat_compat",
    baseUrl: "https://api.openai.com/v1",
    auth: "api_key",
    prefix: "openai",
    models: ["gpt-4.1", "gpt-4.1-mini", "gpt-4o-mini"],
  },
  {
    id: "anthropic",
    vendor: "Anthropic",
    apiType: "messages_native",
    baseUrl: "https://api.anthropic.com",
    auth: "api_key",
    prefix: "anthropic",
    models: ["claude-sonnet-4-20250514", "claude-opus-4-20250514"],
  },
  {
    id: "gemini",
    vendor: "Google Gemini",
    apiType: "generate_native",
    baseUrl: "https://generativelanguage.googleapis.com",
    auth: "api_key",
    prefix: "gemini",
    models: ["gemini-2.5-pro", "gemini-2.0-flash"],
  },
  api("openrouter", "OpenRouter", "https://openrouter.ai/api/v1"),
  api("groq", "Groq", "https://api.groq.com/openai/v1"),
  api("deepseek", "DeepSeek", "https://api.deepseek.com", ["deepseek-chat", "deepseek-reasoner"]),
  api("mistral", "Mistral", "https://api.mistral.ai/v1"),
  api("xai", "xAI", "https://api.x.ai/v1"),
  api("together", "Together", "https://api.together.xyz/v1"),
  api("fireworks", "Fireworks", "https://api.fireworks.ai/inference/v1"),
  api("cerebras", "Cerebras", "https://api.cerebras.ai/v1"),
  api("moonshot", "Moonshot (Kimi)", "https://api.moonshot.ai/v1"),
  // Azure: the resource's endpoint (the form asks for the API version and the model → deployment names).
  azure("azure_openai", "Azure OpenAI", "azure_openai"),
  azure("azure_responses", "Azure OpenAI (Responses API)", "azure_responses"),
  local("ollama", "Ollama", "http://127.0.0.1:11434/v1"),
  local("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1"),
  local("vllm", "vLLM", "http://127.0.0.1:8000/v1"),
  subscription("github_copilot", "GitHub Copilot (subscription)", "device_oauth_assistant", "gh"),
  subscription("codex", "ChatGPT / Codex (subscription)", "responses_oauth", "cx"),
  subscription("claude_code", "Claude Pro / Max (subscription)", "messages_oauth", "cc"),
  subscription("kiro", "Kiro (AWS Builder ID)", "cloud_assistant_oauth", "kr"),
  subscription("gemini_cli", "Gemini CLI (Code Assist)", "cli_oauth", "gc"),
  subscription("antigravity", "Antigravity", "cli_oauth_alt", "ag"),
];

/** A hosted chat-completions compatible vendor with an API key. */
function api(id: string, vendor: string, baseUrl: string, models: readonly string[] = []): VendorPreset {
  return { id, vendor, apiType: "chat_compat", baseUrl, auth: "api_key", prefix: id, models };
}

/** An Azure OpenAI resource: the form fills the endpoint's shape; the resource name is the user's. */
function azure(id: string, vendor: string, apiType: ApiType): VendorPreset {
  return {
    id,
    vendor,
    apiType,
    baseUrl: "https://YOUR-RESOURCE.openai.azure.com",
    auth: "api_key",
    prefix: "azure",
    models: ["gpt-4.1", "gpt-4o-mini"],
  };
}

/** A runner on this machine: chat-completions compatible, no key by default. */
function local(id: string, vendor: string, baseUrl: string): VendorPreset {
  return { id, vendor, apiType: "chat_compat", baseUrl, auth: "none", prefix: id, models: [] };
}

/** A subscription signed in with Connect after saving. */
function subscription(id: string, vendor: string, apiType: ApiType, prefix: string): VendorPreset {
  return { id, vendor, apiType, baseUrl: "", auth: "oauth", prefix, models: [] };
}
