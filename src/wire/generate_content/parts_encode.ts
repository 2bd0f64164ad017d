import type { ImagePart, Part, ReasoningPart, ToolCallPart } from "../../model/mod.ts";
import { extraFieldsFor, warning } from "../../model/mod.ts";
import { argumentsLost, argumentsObject, isRecord } from "../shared/mod.ts";
import { guessMediaType, parseDataUrl } from "./media_type.ts";
import type { Warnings } from "./warnings.ts";

const FORMAT = "generate_content";

/** Who reads the encoded parts: a Gemini upstream (strict about history) or a Gemini client. */
export type PartTarget = "upstream" | "client";

/** A Gemini part as sent on the wire. */
export type WirePart = Record<string, unknown>;

/**
 * Encodes a text, image, tool-call or reasoning part; undefined when the target gets nothing for it.
 * Tool results are encoded by the request encoder, which knows the conversation.
 */
export function encodePart(part: Part, target: PartTarget, warnings: Warnings): WirePart | undefined {
  switch (part.kind) {
    case "text": {
      const extra = extraFieldsFor(part.extra, FORMAT);
      // Gemini rejects empty text parts, unless they carry a thought signature (kept in extra).
      if (part.text === "" && Object.keys(extra).length === 0) return undefined;
      return { ...extra, text: part.text };
    }
    case "image":
      return encodeImage(part);
    case "toolCall":
      return encodeToolCall(part, target, warnings);
    case "reasoning":
      return encodeReasoning(part, target, warnings);
    case "toolResult":
      return undefined;
  }
}

function encodeImage(part: ImagePart): WirePart {
  const extra = extraFieldsFor(part.extra, FORMAT);
  const original = extra.fileData;
  delete extra.fileData;
  const source = part.source;
  if (source.type === "base64") {
    return { ...extra, inlineData: { mimeType: source.mediaType, data: source.data } };
  }
  const inline = parseDataUrl(source.url);
  if (inline) return { ...extra, inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const fileData = isRecord(original) && original.fileUri === source.url
    ? original
    : { fileUri: source.url, mimeType: guessMediaType(source.url) };
  return { ...extra, fileData };
}

function encodeToolCall(part: ToolCallPart, target: PartTarget, warnings: Warnings): WirePart {
  const extra = extraFieldsFor(part.extra, FORMAT);
  if (argumentsLost(part.arguments)) {
    warnings.add(warning(
      "changed_field:tool_arguments",
      `tool call "${part.name}" had arguments that are not a JSON object; sent as {}`,
      { tool: part.name },
    ));
  }
  const args = argumentsObject(part.arguments);
  // Gemini upstreams reject `id` in request history (they pair calls and responses by name and
  // order); clients get it so they can echo it back on the functionResponse.
  const functionCall = target === "client"
    ? { id: part.id, name: part.name, args }
    : { name: part.name, args };
  const out: WirePart = { ...extra, functionCall };
  // Only Gemini's own signatures are valid here; one is never invented for a call that lacks it.
  if (part.signature !== undefined && part.family === "google") out.thoughtSignature = part.signature;
  return out;
}

function encodeReasoning(part: ReasoningPart, target: PartTarget, warnings: Warnings): WirePart | undefined {
  const google = part.family === "google";
  if (target === "upstream" && !google) {
    const family = part.family ?? "unknown";
    warnings.add(warning(
      "dropped_part:reasoning",
      `dropped reasoning from provider family "${family}": Gemini cannot replay it`,
      { family },
    ));
    return undefined;
  }
  const signature = google ? part.signature : undefined;
  if (part.text === "" && signature === undefined) return undefined;
  const out: WirePart = { ...extraFieldsFor(part.extra, FORMAT), text: part.text, thought: true };
  if (signature !== undefined) out.thoughtSignature = signature;
  return out;
}
