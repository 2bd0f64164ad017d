/**
 * How the provider form names each provider kind. Which kinds exist and which this build can call come
 * from the server (the providers section's `api_types`); this is only wording, and the `Record` over
 * `ApiType` makes the type check fail when a kind is added without a label.
 */
import type { ApiType } from "../../../src/features/providers/contract.ts";

/** A label and an example base URL for one provider kind. */
export interface ApiTypeWording {
  readonly label: string;
  readonly url: string;
  /** What the base URL field means for this kind, when it is not the plain API base. */
  readonly urlLabel?: string;
  /** A sentence the form shows under the type: what this kind needs. */
  readonly note?: string;
}

/** Wording of every provider kind. */
export const API_TYPE_WORDING: Readonly<Record<ApiType, ApiTypeWording>> = {
  chat_compat: { label: "Chat-completions compatible", url: "https://api.example.com/v1" },
  messages_native: { label: "Messages API (API key)", url: "https://api.anthropic.com" },
  generate_native: { label: "Generate-content API", url: "https://generativelanguage.googleapis.com" },
  responses_native: { label: "Responses API (API key)", url: "https://api.openai.com/v1" },
  free_tier: {
    label: "Free tier (no key)",
    url: "https://opencode.ai/zen/v1",
    note: "A free hosted provider: pick a preset to fill the base URL and models; no API key is needed.",
  },
  device_oauth_assistant: { label: "Code assistant (device OAuth)", url: "" },
  responses_oauth: { label: "Responses API (OAuth)", url: "" },
  cloud_assistant_oauth: {
    label: "Kiro / CodeWhisperer (OAuth)",
    url: "https://runtime.us-east-1.kiro.dev",
    note:
      "Connect signs in with an AWS Builder ID device code (Identity Center: set oauth.start_url in the " +
      "configuration and the region below). Or paste the Kiro credential JSON as the API key; its region and " +
      "profile ARN travel inside it. The region below, when set, is used for sign-in and picks the API hosts.",
  },
  subscription_shell: {
    label: "Cursor via an OpenAI-compatible bridge",
    url: "http://127.0.0.1:8080/v1",
    urlLabel: "Bridge URL",
    note: "Cursor has no public subscription API: the gateway calls a bridge that speaks chat completions " +
      "at this URL, with the API key below. No reverse-engineered protocol.",
  },
  cli_oauth: {
    label: "Google Cloud Code: Gemini CLI (OAuth)",
    url: "https://cloudcode-pa.googleapis.com",
    note: "Individual Gemini CLI sign-in was shut down by Google (2026-06-18); Code Assist Standard and " +
      "Enterprise accounts work. Without a project below, it is found on first use and stored.",
  },
  cli_oauth_alt: {
    label: "Google Cloud Code: Antigravity (OAuth)",
    url: "https://cloudcode-pa.googleapis.com",
    note: "Without a project below, it is found on first use and stored; refresh needs " +
      "oauth.client_id and client_secret in the configuration.",
  },
  messages_oauth: { label: "Messages API (subscription OAuth)", url: "" },
  azure_openai: {
    label: "Azure OpenAI: chat completions",
    url: "https://YOUR-RESOURCE.openai.azure.com",
    urlLabel: "Resource endpoint",
    note: "The key goes in an api-key header. API version v1 calls /openai/v1 with the deployment as the " +
      "model; a dated version (2024-10-21) calls /openai/deployments/{deployment}. A model without a " +
      "deployment below is called by its own name.",
  },
  azure_responses: {
    label: "Azure OpenAI: Responses API",
    url: "https://YOUR-RESOURCE.openai.azure.com",
    urlLabel: "Resource endpoint",
    note:
      "The Responses API of the resource (/openai/v1/responses, or /openai/responses?api-version= for a " +
      "dated version); the deployment travels as the model.",
  },
};

/** The label of a provider kind (the raw name for one this UI does not know). */
export function apiTypeLabel(apiType: string): string {
  return API_TYPE_WORDING[apiType as ApiType]?.label ?? apiType;
}
