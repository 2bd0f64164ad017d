/** The five wire formats the gateway speaks; each has one codec under src/wire/<format>. */
export type WireFormat =
  | "chat_completions"
  | "responses"
  | "messages"
  | "generate_content"
  | "local_runner";

/** Every wire format, in a stable order (useful for conformance matrices). */
export const WIRE_FORMATS: readonly WireFormat[] = [
  "chat_completions",
  "responses",
  "messages",
  "generate_content",
  "local_runner",
];
