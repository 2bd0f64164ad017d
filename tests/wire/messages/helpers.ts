/** Stream plumbing and an event collector for the messages codec tests. */
import type { Finish, NeutralResponse, Part, StreamEvent, Usage } from "../../../src/model/mod.ts";
import { mergeUsage, SYNTHETIC_STOP, ZERO_USAGE } from "../../../src/model/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";

/** Runs `items` through a TransformStream and returns everything it produced. */
export async function pipe<I, O>(items: readonly I[], stream: TransformStream<I, O>): Promise<O[]> {
  const out: O[] = [];
  await ReadableStream.from(items).pipeThrough(stream).pipeTo(
    new WritableStream({ write: (chunk) => void out.push(chunk) }),
  );
  return out;
}

/** Parses SSE text into frames with the real framing code. */
export function framesOf(text: string): Promise<Frame[]> {
  return pipe([text], sseFrames());
}

/** Builds messages-style SSE text: one `event:` + `data:` pair per payload, named by its `type`. */
export function sse(...payloads: readonly Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join("");
}

/** Parses encoder output back into `{event, data}` pairs. */
export async function parsedEvents(text: string): Promise<{ event?: string; data: unknown }[]> {
  const frames = await framesOf(text);
  return frames.map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) }));
}

/** Folds neutral stream events into the response they describe (reasoning signatures included). */
export function collect(events: readonly StreamEvent[]): NeutralResponse {
  let id = "";
  let model = "";
  let usage: Usage = ZERO_USAGE;
  let finish: Finish = SYNTHETIC_STOP;
  const blocks = new Map<
    number,
    { start: Extract<StreamEvent, { type: "blockStart" }>; text: string; sig: string }
  >();
  const order: number[] = [];
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        break;
      case "blockStart":
        blocks.set(event.index, { start: event, text: "", sig: "" });
        order.push(event.index);
        break;
      case "textDelta":
        blocks.get(event.index)!.text += event.text;
        break;
      case "argumentsDelta":
        blocks.get(event.index)!.text += event.json;
        break;
      case "signatureDelta":
        blocks.get(event.index)!.sig += event.signature;
        break;
      case "usage":
        usage = mergeUsage(usage, event.usage);
        break;
      case "finish":
        finish = event.finish;
        break;
      case "blockEnd":
      case "error":
        break;
    }
  }
  const parts: Part[] = order.map((index): Part => {
    const { start, text, sig } = blocks.get(index)!;
    switch (start.kind) {
      case "toolCall":
        return { kind: "toolCall", id: start.id ?? "", name: start.name ?? "", arguments: text };
      case "reasoning":
        if (start.redactedData !== undefined) {
          return { kind: "reasoning", text: "", redactedData: start.redactedData, family: start.family };
        }
        return sig
          ? { kind: "reasoning", text, signature: sig, family: start.family }
          : { kind: "reasoning", text };
      case "text":
        return { kind: "text", text };
    }
  });
  // mergeUsage leaves `estimated: undefined`; drop it so results compare with decoded answers.
  const { estimated, ...counts } = usage;
  return { id, model, parts, finish, usage: estimated === undefined ? counts : usage };
}
