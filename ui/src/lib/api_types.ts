/**
 * How the provider form names each provider kind. Which kinds exist and which this build can call come
 * from the server (the providers section's `api_types`); this is only wording, and the `Record` over
 * `ApiType` makes the type check fail when a kind is added without a label.
 */
import type { ApiType } from "../../../src/dashboard/contract/mod.ts";

/** A label and an example base URL for one provider kind. */
export interface ApiTypeWording {
  readonly label: string;
  readonly url: string;
}

/** Wording of every provider kind. */
export const API_TYPE_WORDING: Readonly<Record<ApiType, ApiTypeWording>> = {
  chat_compat: { label: "Chat-completions compatible", url: "https://api.example.com/v1" },
  messages_native: { label: "Messages API (API key)", url: "https://api.anthropic.com" },
  generate_native: { label: "Generate-content API", url: "https://generativelanguage.googleapis.com" },
  responses_native: { label: "Responses API (API key)", url: "https://api.openai.com/v1" },
  free_tier: { label: "Free-tier hosted", url: "" },
  device_oauth_assistant: { label: "Code assistant (device OAuth)", url: "" },
  responses_oauth: { label: "Responses API (OAuth)", url: "" },
  cloud_assistant_oauth: { label: "Cloud code assistant (OAuth)", url: "" },
  subscription_shell: { label: "Subscription editor", url: "" },
  cli_oauth: { label: "CLI assistant (OAuth)", url: "" },
  cli_oauth_alt: { label: "CLI assistant (OAuth, alt)", url: "" },
  messages_oauth: { label: "Messages API (subscription OAuth)", url: "" },
};

/** The label of a provider kind (the raw name for one this UI does not know). */
export function apiTypeLabel(apiType: string): string {
  return API_TYPE_WORDING[apiType as ApiType]?.label ?? apiType;
}
