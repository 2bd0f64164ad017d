import type { Message, NeutralRequest, Part, TextPart, ToolResultPart } from "../../model/mod.ts";

/** Where one projected text came from in the neutral request. */
type Slot =
  | { readonly in: "system"; readonly index: number }
  | { readonly in: "part"; readonly message: number; readonly part: number }
  | { readonly in: "result"; readonly message: number; readonly part: number; readonly item: number };

/** One OpenAI chat message as sent to the compressor, with the texts' origins beside it. */
interface Projected {
  readonly message: Record<string, unknown>;
  readonly slots: readonly Slot[];
}

/** The chat-style messages to compress and the map back into the neutral request. */
export interface Projection {
  readonly messages: readonly Record<string, unknown>[];
  readonly entries: readonly Projected[];
}

function content(texts: readonly string[]): string | { type: "text"; text: string }[] {
  return texts.length === 1 ? texts[0] : texts.map((text) => ({ type: "text", text }));
}

function projectResult(result: ToolResultPart, message: number, part: number): Projected | undefined {
  const slots: Slot[] = [];
  const texts: string[] = [];
  result.content.forEach((item, i) => {
    if (item.kind !== "text") return;
    slots.push({ in: "result", message, part, item: i });
    texts.push(item.text);
  });
  if (texts.length === 0) return undefined;
  return { message: { role: "tool", tool_call_id: result.callId, content: content(texts) }, slots };
}

function projectMessage(message: Message, index: number, out: Projected[]): void {
  const slots: Slot[] = [];
  const texts: string[] = [];
  const calls: Record<string, unknown>[] = [];
  message.parts.forEach((part: Part, i) => {
    switch (part.kind) {
      case "toolResult": {
        const projected = projectResult(part, index, i);
        if (projected) out.push(projected);
        break;
      }
      case "text":
        slots.push({ in: "part", message: index, part: i });
        texts.push(part.text);
        break;
      case "toolCall":
        calls.push({
          id: part.id,
          type: "function",
          function: { name: part.name, arguments: part.arguments },
        });
        break;
      // Images and reasoning never leave the gateway: they stay where they are in the neutral request.
      case "image":
      case "reasoning":
        break;
    }
  });
  if (message.role === "tool" || (texts.length === 0 && calls.length === 0)) return;
  const projected: Record<string, unknown> = {
    role: message.role,
    content: texts.length > 0 ? content(texts) : null,
  };
  if (calls.length > 0) projected.tool_calls = calls;
  out.push({ message: projected, slots });
}

/**
 * Projects the request onto OpenAI chat messages carrying only text. Every text remembers its origin,
 * so the compressed texts go back in place and everything else (images, reasoning signatures, cache
 * breakpoints, ids, extras) is untouched: the round trip cannot lose what was never sent.
 */
export function project(request: NeutralRequest): Projection {
  const entries: Projected[] = request.system.map((part, index) => ({
    message: { role: "system", content: part.text },
    slots: [{ in: "system", index }],
  }));
  request.messages.forEach((message, index) => projectMessage(message, index, entries));
  return { messages: entries.map((entry) => entry.message), entries };
}

function textsOf(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return value === null ? [] : undefined;
  const texts: string[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return undefined;
    const record = item as Record<string, unknown>;
    if (record.type === "text" && typeof record.text === "string") texts.push(record.text);
  }
  return texts;
}

// A compressor answer is only taken where it actually made the text shorter.
function setText<T extends TextPart>(part: T, text: string): T {
  return text.length < part.text.length ? { ...part, text } : part;
}

/**
 * Writes compressed texts back. Returns undefined when the answer does not line up with what was
 * sent (other message count, roles, tool-call ids or text counts): then nothing is trusted.
 */
export function unproject(
  request: NeutralRequest,
  projection: Projection,
  answer: readonly unknown[],
): NeutralRequest | undefined {
  if (answer.length !== projection.entries.length) return undefined;
  const system = [...request.system];
  const messages = request.messages.map((message) => ({ ...message, parts: [...message.parts] }));
  for (let i = 0; i < answer.length; i++) {
    const sent = projection.entries[i];
    const got = answer[i];
    if (typeof got !== "object" || got === null) return undefined;
    const record = got as Record<string, unknown>;
    if (record.role !== sent.message.role || record.tool_call_id !== sent.message.tool_call_id) {
      return undefined;
    }
    const texts = textsOf(record.content);
    if (!texts || texts.length !== sent.slots.length) return undefined;
    sent.slots.forEach((slot, k) => {
      switch (slot.in) {
        case "system":
          system[slot.index] = setText(system[slot.index], texts[k]);
          break;
        case "part": {
          const part = messages[slot.message].parts[slot.part];
          if (part.kind === "text") messages[slot.message].parts[slot.part] = setText(part, texts[k]);
          break;
        }
        case "result": {
          const part = messages[slot.message].parts[slot.part];
          if (part.kind !== "toolResult") break;
          const content = [...part.content];
          const item = content[slot.item];
          if (item.kind === "text") content[slot.item] = setText(item, texts[k]);
          messages[slot.message].parts[slot.part] = { ...part, content };
          break;
        }
      }
    });
  }
  const changed = system.some((part, i) => part !== request.system[i]) ||
    messages.some((message, i) => message.parts.some((part, k) => part !== request.messages[i].parts[k]));
  return changed ? { ...request, system, messages } : request;
}
