import type { ApiType, ProviderConfig } from "../config/mod.ts";
import type { UpstreamFormat } from "../model/mod.ts";
import { cloudAssistantCodec, upstreamCodecFor } from "../wire/mod.ts";
import type { CallShaper } from "./call_shape.ts";
import { AZURE_DEFAULTS, azurePreset } from "./azure.ts";
import type { PresetSettings, ProtocolPreset } from "./protocol_preset.ts";
import { KIRO_RUNTIME_URL, KIRO_SHAPER } from "./cloud_assistant.ts";
import { ANTIGRAVITY_SHAPER, cloudCodeCodec, cloudCodeUrl, GEMINI_CLI_SHAPER } from "./cloud_code.ts";

export type { PresetSettings, ProtocolPreset };

function header(name: string, value: string): Record<string, string> {
  return value ? { [name]: value } : {};
}

const bearer = (apiKey: string) => header("authorization", apiKey ? `Bearer ${apiKey}` : "");

const CHAT_COMPAT: ProtocolPreset = {
  format: "chat_completions",
  codec: upstreamCodecFor("chat_completions"),
  url: (base) => `${base}/chat/completions`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/models`,
};

/** The Anthropic API version sent when the client did not send one. */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

const MESSAGES: ProtocolPreset = {
  format: "messages",
  codec: upstreamCodecFor("messages"),
  url: (base) => `${base}/v1/messages`,
  authHeaders: (apiKey) => header("x-api-key", apiKey),
  modelsUrl: (base) => `${base}/v1/models`,
  countUrl: (base) => `${base}/v1/messages/count_tokens`,
};

const GENERATE: ProtocolPreset = {
  format: "generate_content",
  codec: upstreamCodecFor("generate_content"),
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
  codec: upstreamCodecFor("responses"),
  url: (base) => `${base}/responses`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/models`,
};

function cloudCode(shaper: CallShaper): ProtocolPreset {
  return {
    format: "generate_content",
    codec: cloudCodeCodec,
    shaper,
    url: (base, _model, stream) =>
      cloudCodeUrl(base, stream ? "streamGenerateContent" : "generateContent", stream),
    authHeaders: bearer,
    modelsUrl: (base) => cloudCodeUrl(base, "fetchAvailableModels"),
    countUrl: (base) => cloudCodeUrl(base, "countTokens"),
  };
}

const GEMINI_CLI = cloudCode(GEMINI_CLI_SHAPER);
const ANTIGRAVITY = cloudCode(ANTIGRAVITY_SHAPER);

const CLOUD_ASSISTANT: ProtocolPreset = {
  format: "cloud_assistant",
  codec: cloudAssistantCodec,
  alwaysStream: true,
  shaper: KIRO_SHAPER,
  url: (base) => `${base}/generateAssistantResponse`,
  authHeaders: bearer,
  modelsUrl: (base) =>
    base === KIRO_RUNTIME_URL
      ? "https://q.us-east-1.amazonaws.com/ListAvailableModels"
      : `${base}/ListAvailableModels`,
};

/** Claude subscription: the messages API with a bearer token (the subscription layer adds its headers). */
const MESSAGES_OAUTH: ProtocolPreset = {
  format: "messages",
  codec: upstreamCodecFor("messages"),
  url: (base) => `${base}/v1/messages?beta=true`,
  authHeaders: bearer,
  modelsUrl: (base) => `${base}/v1/models`,
};

/**
 * The preset of each api_type (every kind of the spec can be called). Subscription kinds
 * (`src/executors/oauth/`) take their URL and headers per call from their credential; the preset gives
 * their base format.
 */
export function presetFor(apiType: ApiType): ProtocolPreset {
  switch (apiType) {
    case "chat_compat":
    case "free_tier":
    // The subscription editor is reached through an OpenAI-compatible bridge at its base URL (docs/subscriptions.md).
    case "subscription_shell":
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
    case "cli_oauth":
      return GEMINI_CLI;
    case "cli_oauth_alt":
      return ANTIGRAVITY;
    case "cloud_assistant_oauth":
      return CLOUD_ASSISTANT;
    case "azure_openai":
      return AZURE_CHAT;
    case "azure_responses":
      return AZURE_RESPONSES;
  }
}

const AZURE_CHAT = azurePreset("chat_completions", AZURE_DEFAULTS);
const AZURE_RESPONSES = azurePreset("responses", AZURE_DEFAULTS);

/** Presets bound to one provider's settings, built once per provider config (configs are replaced on reload). */
const bound = new WeakMap<PresetSettings, ProtocolPreset>();

/** The preset that calls this provider: its kind's, bound to the provider's own settings where the kind has some. */
export function presetOf(provider: PresetSettings): ProtocolPreset {
  const preset = presetFor(provider.apiType);
  if (!preset.bind) return preset;
  let own = bound.get(provider);
  if (own === undefined) {
    own = preset.bind(provider);
    bound.set(provider, own);
  }
  return own;
}

/** The name a provider's upstream knows a model by, in request bodies (Azure: its deployment). */
export function upstreamModelName(preset: ProtocolPreset, model: string): string {
  return preset.upstreamModel?.(model) ?? model;
}

/**
 * The URL of an OpenAI-style operation (`/embeddings`, `/images/generations`, `/audio/speech`, …) of a
 * provider: under its base URL, or where its kind puts it (Azure: per deployment).
 */
export function operationUrl(preset: ProtocolPreset, baseUrl: string, path: string, model: string): string {
  return preset.operationUrl?.(baseUrl, path, model) ?? `${baseUrl.replace(/\/+$/, "")}${path}`;
}

/** The wire format a provider speaks. */
export function upstreamFormat(provider: ProviderConfig): UpstreamFormat {
  return presetFor(provider.apiType).format;
}
