import type { ApiType, ProviderConfig } from "../config/mod.ts";
import type { WireFormat } from "../model/mod.ts";

/** How to reach one kind of upstream: its wire format, URL and auth. Providers are data. */
export interface ProtocolPreset {
  readonly format: WireFormat;
  /** Builds the upstream URL from the provider's base URL. */
  url(baseUrl: string, upstreamModel: string, stream: boolean): string;
  /** Headers that authenticate the call. */
  authHeaders(apiKey: string): Record<string, string>;
  /** URL of the upstream's model list (Fetch Models). */
  modelsUrl(baseUrl: string): string;
  /** URL of the upstream's own token-counting endpoint, where it has one. */
  countUrl?(baseUrl: string, upstreamModel: string): string;
}

function header(name: string, value: string): Record<string, string> {
  return value ? { [name]: value } : {};
}

const bearer = (apiKey: string) => header("authorization", apiKey ? `Bearer ${apiKey}` : "");

const CHAT_COMPAT: ProtocolPreset = {
  format: "chat_completions",
  url: (base) => `${base}/chat/completions`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/models`,
};

/** The Anthropic API version sent when the client did not send one. */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

const MESSAGES: ProtocolPreset = {
  format: "messages",
  url: (base) => `${base}/v1/messages`,
  authHeaders: (apiKey) => header("x-api-key", apiKey),
  modelsUrl: (base) => `${base}/v1/models`,
  countUrl: (base) => `${base}/v1/messages/count_tokens`,
};

const GENERATE: ProtocolPreset = {
  format: "generate_content",
  url: (base, model, stream) =>
    `${base}/v1beta/models/${encodeURIComponent(model)}:${
      stream ? "streamGenerateContent?alt=sse" : "generateContent"
    }`,
  authHeaders: (apiKey) => header("x-goog-api-key", apiKey),
  modelsUrl: (base) => `${base}/v1beta/models`,
  countUrl: (base, model) => `${base}/v1beta/models/${encodeURIComponent(model)}:countTokens`,
};

const RESPONSES: ProtocolPreset = {
  format: "responses",
  url: (base) => `${base}/responses`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/models`,
};

/** Claude subscription: the messages API with a bearer token (the subscription layer adds its headers). */
const MESSAGES_OAUTH: ProtocolPreset = {
  format: "messages",
  url: (base) => `${base}/v1/messages?beta=true`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/v1/models`,
};

/**
 * The preset of each api_type this build can call, or null for kinds not implemented yet; requests to
 * those fail with a clear message. Subscription kinds (`src/executors/oauth/`) take their URL and headers
 * per call from their credential; the preset gives their base format.
 */
export function presetFor(apiType: ApiType): ProtocolPreset | null {
  switch (apiType) {
    case "chat_compat":
    case "free_tier":
      return CHAT_COMPAT;
    case "messages_native":
      return MESSAGES;
    case "generate_native":
      return GENERATE;
    case "responses_native":
    case "responses_oauth":
      return RESPONSES;
    case "messages_oauth":
      return MESSAGES_OAUTH;
    case "device_oauth_assistant":
      return CHAT_COMPAT;
    case "cloud_assistant_oauth":
    case "subscription_shell":
    case "cli_oauth":
    case "cli_oauth_alt":
      return null;
  }
}

/** The wire format a provider speaks, or null when its kind cannot be called. */
export function upstreamFormat(provider: ProviderConfig): WireFormat | null {
  return presetFor(provider.apiType)?.format ?? null;
}
