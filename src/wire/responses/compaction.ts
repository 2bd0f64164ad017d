/**
 * Codex's remote compaction in the Responses format, for upstreams that cannot compact themselves: the
 * gateway asks the routed model for a handoff summary and hands it back as the one `compaction` item
 * Codex requires. The item's `encrypted_content` is the summary, readable by this gateway only in the
 * sense that it recognises its own prefix; it is the client's own conversation, so it is encoded, not
 * sealed. A later request carrying the item gets the summary back as a user message, for any upstream.
 */
import type { Frame } from "../framing/mod.ts";
import { isRecord } from "../shared/mod.ts";
import { base64ToText, textToBase64 } from "../shared/base64_text.ts";
import type { WireObject } from "./response_object.ts";

/** Marks compaction content the gateway wrote (anything else is an upstream's own, opaque state). */
export const GATEWAY_COMPACTION_PREFIX = "gateway-summary-v1.";

/** The text a gateway compaction turns back into, ahead of the summary itself. */
export const SUMMARY_HEADING = "Summary of the earlier part of this conversation (compacted):";

/** The instruction the routed model gets when it has to write the compaction itself. */
export const COMPACTION_PROMPT =
  "You are compacting a long coding-agent session so that it can continue in a " +
  "fresh context. Write a handoff summary for the assistant who will continue: the user's goals and " +
  "constraints, what has been done so far (files read and changed, commands run and their results), " +
  "decisions taken and why, open problems and errors, and the exact next steps. Keep file paths, " +
  "identifiers, commands and error messages verbatim. Output only the summary.";

/** The `encrypted_content` of a compaction the gateway made from `summary`. */
export function compactionContent(summary: string): string {
  return GATEWAY_COMPACTION_PREFIX + textToBase64(summary);
}

/** The summary inside a gateway-made compaction's content, or null for any other content. */
export function summaryOfCompaction(content: unknown): string | null {
  if (typeof content !== "string" || !content.startsWith(GATEWAY_COMPACTION_PREFIX)) return null;
  return base64ToText(content.slice(GATEWAY_COMPACTION_PREFIX.length)) ?? null;
}

/** True when a Responses request asks for remote compaction inline (an input item `compaction_trigger`). */
export function hasCompactionTrigger(body: unknown): boolean {
  return isRecord(body) && Array.isArray(body.input) &&
    body.input.some((item) => isRecord(item) && item.type === "compaction_trigger");
}

/**
 * The Responses request that asks the routed model for the summary: the conversation as it is (trigger
 * items removed), no tools, the compaction prompt as the last user turn, one JSON answer.
 */
export function summaryRequestBody(body: Record<string, unknown>): Record<string, unknown> {
  const input = typeof body.input === "string"
    ? [{ role: "user", content: body.input }]
    : Array.isArray(body.input)
    ? body.input.filter((item) => !(isRecord(item) && item.type === "compaction_trigger"))
    : [];
  const request: Record<string, unknown> = {
    model: body.model,
    input: [...input, { role: "user", content: COMPACTION_PROMPT }],
    stream: false,
    store: false,
  };
  if (typeof body.instructions === "string" && body.instructions !== "") {
    request.instructions = body.instructions;
  }
  return request;
}

/** The output text of a Responses response object (the summary the model wrote). */
export function outputTextOf(response: unknown): string {
  if (!isRecord(response) || !Array.isArray(response.output)) return "";
  const texts: string[] = [];
  for (const item of response.output) {
    if (!isRecord(item) || item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (isRecord(part) && part.type === "output_text" && typeof part.text === "string") {
        texts.push(part.text);
      }
    }
  }
  return texts.join("").trim();
}

/** The one compaction output item for `summary`. */
export function compactionItem(id: string, summary: string): WireObject {
  return { id, type: "compaction", encrypted_content: compactionContent(summary) };
}

/**
 * The user messages of the compacted input, kept ahead of the compaction item as the API does: the
 * user's own words survive a compaction verbatim, the rest lives in the summary.
 */
export function retainedUserMessages(body: Record<string, unknown>): WireObject[] {
  if (typeof body.input === "string") return [userMessage(body.input)];
  if (!Array.isArray(body.input)) return [];
  return body.input.filter((item): item is WireObject =>
    isRecord(item) && item.role === "user" && (item.type === undefined || item.type === "message")
  );
}

function userMessage(text: string): WireObject {
  return { type: "message", role: "user", content: [{ type: "input_text", text }] };
}

/** What a compaction answer carries besides its items. */
export interface CompactionAnswer {
  readonly id: string;
  readonly model: string;
  readonly createdAt: number;
  readonly usage: unknown;
}

/** The body of `POST /v1/responses/compact`: the retained user messages and the compaction item. */
export function compactedResponse(answer: CompactionAnswer, output: readonly WireObject[]): WireObject {
  return {
    id: answer.id,
    object: "response.compaction",
    created_at: answer.createdAt,
    output,
    ...(isRecord(answer.usage) ? { usage: answer.usage } : {}),
  };
}

/** The completed response object of an inline compaction (`compaction_trigger` on `/v1/responses`). */
export function compactionResponseObject(answer: CompactionAnswer, item: WireObject): WireObject {
  return {
    id: answer.id,
    object: "response",
    created_at: answer.createdAt,
    status: "completed",
    model: answer.model,
    output: [item],
    ...(isRecord(answer.usage) ? { usage: answer.usage } : {}),
  };
}

/** The same answer as the stream a streaming client expects (its frames), ending with `response.completed`. */
export function compactionStream(answer: CompactionAnswer, item: WireObject): Frame[] {
  const done = compactionResponseObject(answer, item);
  const started = { ...done, status: "in_progress", output: [] };
  const events: [string, Record<string, unknown>][] = [
    ["response.created", { response: started }],
    ["response.in_progress", { response: started }],
    ["response.output_item.added", { output_index: 0, item }],
    ["response.output_item.done", { output_index: 0, item }],
    ["response.completed", { response: done }],
  ];
  return events.map(([type, fields], i) => ({
    event: type,
    data: JSON.stringify({ type, sequence_number: i, ...fields }),
  }));
}

/** The request that asks a Responses upstream to compact natively: the same input plus the trigger item. */
export function nativeCompactionBody(body: Record<string, unknown>): Record<string, unknown> {
  const input = typeof body.input === "string"
    ? [{ role: "user", content: body.input }]
    : Array.isArray(body.input)
    ? body.input
    : [];
  return { ...body, input: [...input, { type: "compaction_trigger" }], stream: true, store: false };
}

/**
 * The one compaction item and the usage of a native compaction's streamed answer (its frames), or null
 * when the answer did not complete with exactly one compaction item (the upstream cannot compact).
 */
export function compactionOfFrames(
  frames: readonly Frame[],
): { item: WireObject; answer: Omit<CompactionAnswer, "model"> } | null {
  for (const frame of frames) {
    if (frame.event !== "response.completed" && !frame.data.includes('"response.completed"')) continue;
    try {
      const event: unknown = JSON.parse(frame.data);
      if (!isRecord(event) || event.type !== "response.completed") continue;
      return compactionOfResponse(event.response);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The one compaction item and the usage of a completed Responses object (a JSON answer, or the
 * `response` of `response.completed`), or null unless its output holds exactly one compaction item.
 */
function compactionOfResponse(
  response: unknown,
): { item: WireObject; answer: Omit<CompactionAnswer, "model"> } | null {
  if (!isRecord(response)) return null;
  const output = Array.isArray(response.output) ? response.output : [];
  const items = output.filter((item): item is WireObject => isRecord(item) && item.type === "compaction");
  if (items.length !== 1) return null;
  const { id, created_at: createdAt, usage } = response;
  return {
    item: items[0],
    answer: {
      id: typeof id === "string" ? id : "resp_compaction",
      createdAt: typeof createdAt === "number" ? createdAt : 0,
      usage,
    },
  };
}
