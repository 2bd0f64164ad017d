import type { Message, NeutralRequest, TextPart } from "../../src/model/mod.ts";

/** A minimal neutral request with the given system blocks and messages. */
export function request(system: TextPart[] = [], messages: Message[] = []): NeutralRequest {
  return {
    model: "p/model",
    system,
    messages,
    tools: [],
    params: {},
    stream: false,
    source: "messages",
  };
}

/** A system text block. */
export function text(value: string, cached = false): TextPart {
  return cached
    ? { kind: "text", text: value, cacheControl: { type: "ephemeral" } }
    : { kind: "text", text: value };
}
