/** The five wire formats the gateway speaks; each has one codec under src/wire/<format>. */
export type WireFormat =
  | "chat_completions"
  | "responses"
  | "messages"
  | "generate_content"
  | "local_runner";

/**
 * What an upstream can speak: every wire format, plus formats no client speaks (the cloud assistant's
 * conversation-state request with an AWS event-stream answer).
 */
export type UpstreamFormat = WireFormat | "cloud_assistant";
