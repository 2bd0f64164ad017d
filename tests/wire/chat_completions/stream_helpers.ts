/** Test helpers: run frames or events through a TransformStream and collect neutral events. */
import type { NeutralResponse, Part, StreamEvent, Usage } from "../../../src/model/mod.ts";
import { ZERO_USAGE } from "../../../src/model/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";

/** Collects everything `items` produce through `transform`. */
export async function run<I, O>(items: readonly I[], transform: TransformStream<I, O>): Promise<O[]> {
  return await Array.fromAsync(ReadableStream.from(items).pipeThrough(transform));
}

/** SSE data frames for a list of chunk objects (strings are passed as is). */
export function frames(...chunks: readonly unknown[]): Frame[] {
  return chunks.map((chunk) => ({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) }));
}

/** Folds neutral stream events into the response they describe. */
export function collect(events: readonly StreamEvent[]): NeutralResponse {
  let id = "";
  let model = "";
  let created: number | undefined;
  let usage: Usage = ZERO_USAGE;
  let finish: NeutralResponse["finish"] = { unified: "other", raw: null };
  const blocks = new Map<number, Part>();
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        created = event.created;
        break;
      case "blockStart":
        blocks.set(
          event.index,
          event.kind === "toolCall"
            ? { kind: "toolCall", id: event.id ?? "", name: event.name ?? "", arguments: "" }
            : event.kind === "reasoning"
            ? { kind: "reasoning", text: "" }
            : { kind: "text", text: "" },
        );
        break;
      case "textDelta": {
        const part = blocks.get(event.index);
        if (part && (part.kind === "text" || part.kind === "reasoning")) {
          blocks.set(event.index, { ...part, text: part.text + event.text });
        }
        break;
      }
      case "argumentsDelta": {
        const part = blocks.get(event.index);
        if (part?.kind === "toolCall") {
          blocks.set(event.index, { ...part, arguments: part.arguments + event.json });
        }
        break;
      }
      case "usage":
        usage = event.usage;
        break;
      case "finish":
        finish = event.finish;
        break;
      case "signatureDelta":
      case "blockEnd":
      case "error":
        break;
    }
  }
  const parts = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
  return { id, model, ...(created !== undefined ? { created } : {}), parts, finish, usage };
}
