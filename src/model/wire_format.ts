/** The five wire formats the gateway speaks; each has one codec under src/wire/<format>. */
export type WireFormat =
  | "chat_completions"
  | "responses"
  | "messages"
  | "generate_content"
  | "local_runner";
