/** The provider kinds of the spec (`api_type`). */
export const API_TYPES = [
  "chat_compat",
  "messages_native",
  "generate_native",
  "responses_native",
  "free_tier",
  "device_oauth_assistant",
  "responses_oauth",
  "cloud_assistant_oauth",
  "subscription_shell",
  "cli_oauth",
  "cli_oauth_alt",
  "messages_oauth",
  "azure_openai",
  "azure_responses",
] as const;

/** One provider kind. */
export type ApiType = typeof API_TYPES[number];

/** True when `value` names a provider kind (routing keeps api types as plain strings). */
export function isApiType(value: string): value is ApiType {
  return (API_TYPES as readonly string[]).includes(value);
}
