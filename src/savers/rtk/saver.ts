import type { Message, NeutralRequest, Part, TextPart, ToolResultPart } from "../../model/mod.ts";
import type { Saver } from "../types.ts";
import { compressToolOutput } from "./compress.ts";

function compressResult(part: ToolResultPart): ToolResultPart {
  if (part.isError) return part;
  let changed = false;
  const content = part.content.map((item) => {
    if (item.kind !== "text") return item;
    const text = compressToolOutput(item.text);
    if (text === null) return item;
    changed = true;
    return { ...item, text } satisfies TextPart;
  });
  return changed ? { ...part, content } : part;
}

function compressMessage(message: Message): Message {
  let changed = false;
  const parts = message.parts.map((part): Part => {
    if (part.kind !== "toolResult") return part;
    const next = compressResult(part);
    changed ||= next !== part;
    return next;
  });
  return changed ? { ...message, parts } : message;
}

/**
 * Applies RTK to every tool-result text in the neutral request, so every wire format benefits. The
 * output is a pure function of the input, so a conversation compresses identically on every turn and
 * the upstream's prompt cache still matches.
 */
export function rtkCompressRequest(request: NeutralRequest): NeutralRequest {
  let changed = false;
  const messages = request.messages.map((message) => {
    const next = compressMessage(message);
    changed ||= next !== message;
    return next;
  });
  return changed ? { ...request, messages } : request;
}

/** RTK: compresses long tool outputs (git, grep, find, builds, logs…) in the request. */
export const rtkSaver: Saver = { name: "rtk", apply: rtkCompressRequest };
