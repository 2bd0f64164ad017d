import { isRecord } from "../shared/mod.ts";

/** What a count_tokens body holds, as the counter needs it: texts, images, and what cannot be counted. */
export interface CountableInput {
  /** Every text the model reads: system, text blocks, tool calls and results, thinking, documents, tools. */
  readonly texts: string[];
  /** Base64 data of each image (undefined for an image by URL, whose size is not known). */
  readonly images: (string | undefined)[];
  /** Messages, for their per-message overhead. */
  readonly messages: number;
  /** Why the body cannot be counted without the upstream (a PDF or a document by URL), or null. */
  readonly uncountable: string | null;
}

type Json = Record<string, unknown>;
/** The input while it is collected. */
type Building = { -readonly [K in keyof CountableInput]: CountableInput[K] };

/**
 * Walks a `/v1/messages/count_tokens` body (already checked by the request decoder) and collects what
 * the model reads, block type by block type. Thinking counts only in the assistant message of the turn
 * in progress: the API strips thinking of earlier turns before the model sees them.
 */
export function countableInput(body: Json): CountableInput {
  const out: Building = {
    texts: [],
    images: [],
    messages: 0,
    uncountable: null,
  };
  if (typeof body.system === "string") out.texts.push(body.system);
  else if (Array.isArray(body.system)) { for (const block of body.system) addBlock(block, out, true); }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const current = currentTurnAssistant(messages);
  messages.forEach((message, i) => {
    if (!isRecord(message)) return;
    out.messages++;
    if (typeof message.content === "string") out.texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content) addBlock(block, out, i === current);
    }
  });
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (!isRecord(tool)) continue;
    // Client tools are read as their definition; server tools (web search…) by what they configure.
    out.texts.push(JSON.stringify(tool));
  }
  return out;
}

/**
 * The index of the assistant message whose thinking the model still reads: the last one, when nothing
 * follows it but tool results (the turn is still in progress); -1 when a new user turn began.
 */
function currentTurnAssistant(messages: readonly unknown[]): number {
  const at = messages.findLastIndex((m) => isRecord(m) && m.role === "assistant");
  if (at === -1) return -1;
  const toolResultsOnly = messages.slice(at + 1).every((m) =>
    isRecord(m) && Array.isArray(m.content) && m.content.length > 0 &&
    m.content.every((b) => isRecord(b) && b.type === "tool_result")
  );
  return toolResultsOnly ? at : -1;
}

function addBlock(
  block: unknown,
  out: Building,
  thinkingCounts: boolean,
): void {
  if (!isRecord(block)) return;
  switch (block.type) {
    case "text":
      if (typeof block.text === "string") out.texts.push(block.text);
      return;
    case "image": {
      const source = isRecord(block.source) ? block.source : {};
      out.images.push(source.type === "base64" && typeof source.data === "string" ? source.data : undefined);
      return;
    }
    case "tool_use":
    case "server_tool_use":
      out.texts.push(String(block.name ?? ""), JSON.stringify(block.input ?? {}));
      return;
    case "tool_result":
      if (typeof block.content === "string") out.texts.push(block.content);
      else if (Array.isArray(block.content)) {
        for (const inner of block.content) addBlock(inner, out, thinkingCounts);
      }
      return;
    case "thinking":
      if (thinkingCounts && typeof block.thinking === "string") out.texts.push(block.thinking);
      return;
    case "redacted_thinking":
      if (thinkingCounts && typeof block.data === "string") out.texts.push(block.data);
      return;
    case "document":
      addDocument(block, out);
      return;
    default:
      // Search results, web search results and other blocks the model reads as their content.
      out.texts.push(JSON.stringify(block));
  }
}

function addDocument(block: Json, out: Building): void {
  for (const key of ["title", "context"]) {
    if (typeof block[key] === "string") out.texts.push(block[key] as string);
  }
  const source = isRecord(block.source) ? block.source : {};
  if (source.type === "text" && typeof source.data === "string") {
    out.texts.push(source.data);
  } else if (source.type === "content") {
    if (typeof source.content === "string") out.texts.push(source.content);
    else if (Array.isArray(source.content)) {
      for (const inner of source.content) addBlock(inner, out, false);
    }
  } else {
    out.uncountable ??= `a ${source.type ?? "untyped"} document (${
      String(source.media_type ?? "no media type")
    }) can only be counted by the upstream`;
  }
}
