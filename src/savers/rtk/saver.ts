import type { ImagePart, Message, NeutralRequest, Part, TextPart, ToolResultPart } from "../../model/mod.ts";
import type { Saver } from "../types.ts";
import { compressToolOutput } from "./compress.ts";

// Most requests carry nothing RTK can shorten, so every level below copies its list only once
// something in it actually changed: an untouched request costs no allocation at all.

function compressResult(part: ToolResultPart): ToolResultPart {
  if (part.isError) return part;
  let content: (TextPart | ImagePart)[] | undefined;
  for (let i = 0; i < part.content.length; i++) {
    const item = part.content[i];
    if (item.kind !== "text") continue;
    const text = compressToolOutput(item.text);
    if (text === null) continue;
    content ??= part.content.slice();
    content[i] = { ...item, text } satisfies TextPart;
  }
  return content ? { ...part, content } : part;
}

function compressMessage(message: Message): Message {
  let parts: Part[] | undefined;
  for (let i = 0; i < message.parts.length; i++) {
    const part = message.parts[i];
    if (part.kind !== "toolResult") continue;
    const next = compressResult(part);
    if (next === part) continue;
    parts ??= message.parts.slice();
    parts[i] = next;
  }
  return parts ? { ...message, parts } : message;
}

/**
 * Applies RTK to every tool-result text in the neutral request, so every wire format benefits. The
 * output is a pure function of the input, so a conversation compresses identically on every turn and
 * the upstream's prompt cache still matches.
 */
export function rtkCompressRequest(request: NeutralRequest): NeutralRequest {
  let messages: Message[] | undefined;
  for (let i = 0; i < request.messages.length; i++) {
    const message = request.messages[i];
    const next = compressMessage(message);
    if (next === message) continue;
    messages ??= request.messages.slice();
    messages[i] = next;
  }
  return messages ? { ...request, messages } : request;
}

/** RTK: compresses long tool outputs (git, grep, find, builds, logs…) in the request. */
export const rtkSaver: Saver = { name: "rtk", apply: rtkCompressRequest };
