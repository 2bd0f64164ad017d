/**
 * Prompt and answer capture for traces (off unless configured): the neutral request and answer in the
 * GenAI conventions' message shape (`[{role, parts: [{type, content}]}]`), serialised, passed through
 * the same redaction as request logs, and capped. Pure; the redactor is passed in.
 */
import type { NeutralRequest } from "../model/request.ts";
import type { Part } from "../model/parts.ts";
import type { Finish } from "../model/finish.ts";

/** How captured content is bounded and cleaned. */
export interface ContentCapture {
  /** Most characters kept per captured value (input, output, system instructions). */
  readonly maxChars: number;
  /** The request-log redaction (credentials and configured secrets). */
  readonly redact: (text: string) => string;
}

/** One captured value: the text and whether it was cut to the cap. */
export interface CapturedText {
  readonly text: string;
  readonly truncated: boolean;
}

type GenAiPart = Record<string, unknown>;

function part(p: Part): GenAiPart {
  switch (p.kind) {
    case "text":
      return { type: "text", content: p.text };
    case "image":
      // Inline image bytes are never captured: they are large and say little in a trace.
      return p.source.type === "url"
        ? { type: "uri", modality: "image", uri: p.source.url }
        : { type: "blob", modality: "image", mime_type: p.source.mediaType, content: "[omitted]" };
    case "toolCall":
      return { type: "tool_call", id: p.id, name: p.name, arguments: p.arguments };
    case "toolResult":
      return {
        type: "tool_call_response",
        id: p.callId,
        response: p.content.map((c) => c.kind === "text" ? c.text : "[image]").join(""),
      };
    case "reasoning":
      return { type: "reasoning", content: p.redactedData !== undefined ? "[redacted]" : p.text };
  }
}

/** The request's system instructions in the GenAI shape (`[{type: "text", content}]`). */
export function systemInstructions(request: NeutralRequest): GenAiPart[] {
  return request.system.map((t) => ({ type: "text", content: t.text }));
}

/** The request's messages in the GenAI `gen_ai.input.messages` shape. */
export function inputMessages(request: NeutralRequest): GenAiPart[] {
  return request.messages.map((m) => ({ role: m.role, parts: m.parts.map(part) }));
}

/** The answer in the GenAI `gen_ai.output.messages` shape (one assistant message). */
export function outputMessages(parts: readonly Part[], finish: Finish | null): GenAiPart[] {
  const message: GenAiPart = { role: "assistant", parts: parts.map(part) };
  if (finish !== null) message.finish_reason = finish.raw ?? finish.unified;
  return [message];
}

/**
 * The value as capped, redacted JSON. The text is cut before redaction too (to twice the cap) so a
 * megabyte prompt is not scanned whole, and again after, so redaction cannot push it over the cap.
 */
export function captureJson(value: unknown, capture: ContentCapture): CapturedText {
  const json = JSON.stringify(value) ?? "null";
  const pre = json.length > capture.maxChars * 2 ? json.slice(0, capture.maxChars * 2) : json;
  const redacted = capture.redact(pre);
  if (redacted.length <= capture.maxChars && pre.length === json.length) {
    return { text: redacted, truncated: false };
  }
  return { text: redacted.slice(0, capture.maxChars), truncated: true };
}
