/**
 * Buffers a Responses SSE stream into one non-stream answer (the Codex backend only streams). The last
 * `response.completed` / `response.incomplete` wins; an empty `output` is rebuilt from the
 * `response.output_item.done` items in the order they first appeared.
 */
import { type Frame, sseFrames } from "../../wire/framing/mod.ts";

/** The collected answer, or the error the stream carried instead. */
export type CollectedResponse =
  | { readonly kind: "response"; readonly body: Record<string, unknown> }
  | { readonly kind: "error"; readonly message: string; readonly raw: string };

/** Collects the SSE text of a whole Responses stream. */
export function collectResponsesSse(text: string): CollectedResponse {
  let final: Record<string, unknown> | null = null;
  let first: Record<string, unknown> | null = null;
  let error: { message: string; raw: string } | null = null;
  const items: unknown[] = [];
  for (const data of sseData(text)) {
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(data);
    } catch {
      continue;
    }
    const response = asRecord(event.response);
    if (first === null && response) first = response;
    switch (event.type) {
      case "response.completed":
      case "response.incomplete":
        if (response) final = response;
        break;
      case "response.output_item.done":
        if (event.item !== undefined) items.push(event.item);
        break;
      case "response.failed":
        error = { message: errorMessage(asRecord(response?.error) ?? event), raw: data };
        break;
      case "error":
        error = { message: errorMessage(asRecord(event.error) ?? event), raw: data };
        break;
    }
  }
  if (final === null && error !== null) return { kind: "error", ...error };
  const body = final ?? first;
  if (body === null) {
    return {
      kind: "error",
      message: "the stream ended without a completed response",
      raw: text.slice(0, 500),
    };
  }
  const output = Array.isArray(body.output) ? body.output : [];
  return { kind: "response", body: output.length > 0 ? body : { ...body, output: items } };
}

/** The data of each SSE event, through the one SSE parser (`[DONE]` skipped). */
function sseData(text: string): string[] {
  const data: string[] = [];
  const steps = sseFrames().steps;
  const out = {
    enqueue: (frame: Frame) => {
      if (frame.data !== "[DONE]") data.push(frame.data);
    },
  };
  steps.transform(text, out);
  steps.flush?.(out);
  return data;
}

function errorMessage(error: Record<string, unknown>): string {
  const parts = [error.type, error.code, error.message].filter((v) => typeof v === "string" && v !== "");
  return parts.length > 0 ? parts.join(": ") : "upstream error in the stream";
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}
