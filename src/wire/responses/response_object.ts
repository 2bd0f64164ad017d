import type { Part } from "../../model/mod.ts";
import { itemIdFor } from "./ids.ts";
import type { WireUsage } from "./usage.ts";
import { wrapForeignReasoning } from "./foreign_reasoning.ts";

/** One output item or response object, as plain JSON. */
export type WireObject = Record<string, unknown>;

/** Lifecycle states of a response object. */
export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

/** An output_text content part. */
export function outputTextPart(text: string): WireObject {
  return { type: "output_text", text, annotations: [] };
}

/** An assistant message item; in progress it has no content yet. */
export function messageItem(id: string, text: string, done: boolean): WireObject {
  return {
    id,
    type: "message",
    status: done ? "completed" : "in_progress",
    role: "assistant",
    content: done ? [outputTextPart(text)] : [],
  };
}

/** A function_call item. */
export function functionCallItem(
  id: string,
  callId: string,
  name: string,
  args: string,
  done: boolean,
): WireObject {
  return {
    id,
    type: "function_call",
    status: done ? "completed" : "in_progress",
    call_id: callId,
    name,
    arguments: args,
  };
}

/** A reasoning item: summary text plus, for OpenAI reasoning, the opaque encrypted content. */
export function reasoningItem(id: string, text: string, encrypted: string | undefined): WireObject {
  return {
    id,
    type: "reasoning",
    summary: text === "" ? [] : [{ type: "summary_text", text }],
    ...(encrypted ? { encrypted_content: encrypted } : {}),
  };
}

/** Output items for neutral parts, one item per part, skipping parts a client cannot see. */
export function outputItemsFor(parts: readonly Part[], responseId: string): WireObject[] {
  const items: WireObject[] = [];
  for (const part of parts) {
    switch (part.kind) {
      case "text":
        if (part.text !== "") {
          items.push(messageItem(itemIdFor("msg", responseId, items.length), part.text, true));
        }
        break;
      case "reasoning": {
        const encrypted = part.family === "openai"
          ? part.redactedData ?? part.signature
          : wrapForeignReasoning(part.family, part.signature, part.redactedData, part.text);
        if (part.text === "" && !encrypted) break;
        items.push(reasoningItem(itemIdFor("rs", responseId, items.length), part.text, encrypted));
        break;
      }
      case "toolCall":
        items.push(
          functionCallItem(
            itemIdFor("fc", responseId, items.length),
            part.id,
            part.name,
            part.arguments,
            true,
          ),
        );
        break;
      case "image":
      case "toolResult":
        break;
    }
  }
  return items;
}

/** What varies between response objects; the rest are the fields the SDK expects with their defaults. */
export interface ResponseObjectInput {
  readonly id: string;
  readonly createdAt: number;
  readonly model: string;
  readonly status: ResponseStatus;
  readonly output: readonly WireObject[];
  readonly usage: WireUsage | null;
  readonly incompleteDetails: { readonly reason: string } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** A full response object; `extra` (same-format fields kept from upstream) sits under the computed ones. */
export function responseObject(input: ResponseObjectInput, extra: Record<string, unknown> = {}): WireObject {
  return {
    id: input.id,
    object: "response",
    created_at: input.createdAt,
    status: input.status,
    background: false,
    error: input.error,
    incomplete_details: input.incompleteDetails,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: input.model,
    output: input.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    truncation: "disabled",
    usage: input.usage,
    user: null,
    ...extra,
    ...computed(input),
  };
}

function computed(input: ResponseObjectInput): WireObject {
  return {
    id: input.id,
    object: "response",
    created_at: input.createdAt,
    status: input.status,
    error: input.error,
    incomplete_details: input.incompleteDetails,
    model: input.model,
    output: input.output,
    usage: input.usage,
  };
}
