/** Test helpers for the Responses codec: running transforms and collecting neutral streams. */
import type { Finish, NeutralResponse, Part, StreamEvent, Usage } from "../../../src/model/mod.ts";
import { SYNTHETIC_STOP, ZERO_USAGE } from "../../../src/model/mod.ts";
import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";

/** Pushes `inputs` through `transform` and returns everything it emits. */
export async function run<I, O>(transform: TransformStream<I, O>, inputs: readonly I[]): Promise<O[]> {
  const source = ReadableStream.from(inputs);
  const out: O[] = [];
  for await (const value of source.pipeThrough(transform)) out.push(value);
  return out;
}

/** Parses SSE text into frames. */
export async function framesOf(text: string): Promise<Frame[]> {
  return await run(sseFrames(), [text]);
}

/** The JSON payloads of SSE text, in order. */
export async function payloadsOf(text: string): Promise<Record<string, unknown>[]> {
  return (await framesOf(text)).map((f) => JSON.parse(f.data));
}

/** Builds SSE text from `[event, data]` pairs, the way an upstream sends them. */
export function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** Collects neutral stream events into a response (test-only; the gateway has its own collector). */
export function collect(events: readonly StreamEvent[]): NeutralResponse {
  let id = "";
  let model = "";
  let created: number | undefined;
  let usage: Usage = ZERO_USAGE;
  let finish: Finish = SYNTHETIC_STOP;
  const blocks = new Map<number, Part>();
  const order: number[] = [];
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        created = event.created;
        break;
      case "blockStart":
        order.push(event.index);
        if (event.kind === "text") blocks.set(event.index, { kind: "text", text: "" });
        else if (event.kind === "toolCall") {
          blocks.set(event.index, {
            kind: "toolCall",
            id: event.id ?? "",
            name: event.name ?? "",
            arguments: "",
          });
        } else {
          blocks.set(event.index, {
            kind: "reasoning",
            text: "",
            ...(event.family ? { family: event.family } : {}),
            ...(event.redactedData ? { redactedData: event.redactedData } : {}),
          });
        }
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
      case "signatureDelta": {
        const part = blocks.get(event.index);
        if (part?.kind === "reasoning") {
          blocks.set(event.index, { ...part, signature: (part.signature ?? "") + event.signature });
        }
        break;
      }
      case "usage":
        usage = event.usage;
        break;
      case "finish":
        finish = event.finish;
        break;
      case "blockEnd":
      case "error":
        break;
    }
  }
  return {
    id,
    model,
    ...(created !== undefined ? { created } : {}),
    parts: order.map((i) => blocks.get(i)!),
    finish,
    usage,
  };
}
