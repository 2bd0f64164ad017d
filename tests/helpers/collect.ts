/** Shared stream helpers for tests: run items through a transform, fold neutral events into a response. */
import {
  mergeUsage,
  type NeutralResponse,
  type Part,
  type StreamEvent,
  type Usage,
  ZERO_USAGE,
} from "../../src/model/mod.ts";
import type { WireFormat } from "../../src/model/mod.ts";
import { codecFor } from "../../src/wire/mod.ts";
import { type Frame, ndjsonFrames, sseFrames } from "../../src/wire/framing/mod.ts";

/** Collects everything `items` produce through `transform`. */
export async function run<I, O>(items: readonly I[], transform: ReadableWritablePair<O, I>): Promise<O[]> {
  return await Array.fromAsync(ReadableStream.from(items).pipeThrough(transform));
}

/** The response a stream of neutral events describes, plus any error events it carried. */
export interface Collected extends NeutralResponse {
  readonly errors: readonly string[];
}

/** Folds neutral stream events into the response they describe (signatures, families, redacted data kept). */
export function collect(events: readonly StreamEvent[]): Collected {
  let id = "";
  let model = "";
  let created: number | undefined;
  let usage: Usage = ZERO_USAGE;
  let finish: NeutralResponse["finish"] = { unified: "other", raw: null };
  const errors: string[] = [];
  const blocks = new Map<number, Part>();
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        created = event.created;
        break;
      case "blockStart":
        blocks.set(event.index, openPart(event));
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
        if (part?.kind === "reasoning" || part?.kind === "toolCall") {
          blocks.set(event.index, { ...part, signature: (part.signature ?? "") + event.signature });
        }
        break;
      }
      case "usage":
        usage = mergeUsage(usage, event.usage);
        break;
      case "finish":
        finish = event.finish;
        break;
      case "error":
        errors.push(event.message);
        break;
      case "blockEnd":
        break;
    }
  }
  const parts = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
  // mergeUsage writes `estimated: undefined`; drop it so collected usage compares with decoded usage.
  const { estimated, ...counts } = usage;
  return {
    id,
    model,
    ...(created !== undefined ? { created } : {}),
    parts,
    finish,
    usage: estimated === undefined ? counts : usage,
    errors,
  };
}

/** Like `collect`, without the error list: compares directly with a codec's `decodeResponse()`. */
export function collectResponse(events: readonly StreamEvent[]): NeutralResponse {
  const { errors: _errors, ...response } = collect(events);
  return response;
}

function openPart(start: Extract<StreamEvent, { type: "blockStart" }>): Part {
  const family = start.family ? { family: start.family } : {};
  switch (start.kind) {
    case "toolCall":
      return { kind: "toolCall", id: start.id ?? "", name: start.name ?? "", arguments: "", ...family };
    case "reasoning":
      return {
        kind: "reasoning",
        text: "",
        ...family,
        ...(start.redactedData ? { redactedData: start.redactedData } : {}),
      };
    case "text":
      return { kind: "text", text: "" };
  }
}

/** What a client of `client`'s format understands from the bytes it received (only what its format carries). */
export async function decodeClientBytes(
  client: WireFormat,
  stream: boolean,
  text: string,
): Promise<Collected> {
  const codec = codecFor(client);
  if (!stream) return { ...codec.decodeResponse(JSON.parse(text)), errors: [] };
  const frames: Frame[] = await Array.fromAsync(
    ReadableStream.from([text]).pipeThrough(codec.framing === "ndjson" ? ndjsonFrames() : sseFrames()),
  );
  return collect(await Array.fromAsync(ReadableStream.from(frames).pipeThrough(codec.decodeStream())));
}
