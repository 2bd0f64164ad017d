/** Stream plumbing and an event collector shared by the local-runner tests. */
import type { Finish, NeutralResponse, Part, StreamEvent, Usage } from "../../../src/model/mod.ts";
import { SYNTHETIC_STOP, ZERO_USAGE } from "../../../src/model/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";

/** Runs `items` through a TransformStream and returns everything it produced. */
export async function pipe<I, O>(items: readonly I[], stream: TransformStream<I, O>): Promise<O[]> {
  const out: O[] = [];
  await ReadableStream.from(items).pipeThrough(stream).pipeTo(
    new WritableStream({ write: (chunk) => void out.push(chunk) }),
  );
  return out;
}

/** One NDJSON frame per object. */
export function frames(...lines: readonly unknown[]): Frame[] {
  return lines.map((line) => ({ data: typeof line === "string" ? line : JSON.stringify(line) }));
}

/** Folds neutral stream events into the response they describe. */
export function collect(events: readonly StreamEvent[]): NeutralResponse {
  let id = "";
  let model = "";
  let created: number | undefined;
  let usage: Usage = ZERO_USAGE;
  let finish: Finish = SYNTHETIC_STOP;
  const blocks = new Map<number, { kind: string; text: string; id?: string; name?: string }>();
  const order: number[] = [];
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        created = event.created;
        break;
      case "blockStart":
        blocks.set(event.index, { kind: event.kind, text: "", id: event.id, name: event.name });
        order.push(event.index);
        break;
      case "textDelta":
        blocks.get(event.index)!.text += event.text;
        break;
      case "argumentsDelta":
        blocks.get(event.index)!.text += event.json;
        break;
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
  const parts: Part[] = order.map((index) => {
    const block = blocks.get(index)!;
    if (block.kind === "toolCall") {
      return { kind: "toolCall", id: block.id ?? "", name: block.name ?? "", arguments: block.text };
    }
    return block.kind === "reasoning"
      ? { kind: "reasoning", text: block.text }
      : { kind: "text", text: block.text };
  });
  return { id, model, ...(created !== undefined ? { created } : {}), parts, finish, usage };
}
