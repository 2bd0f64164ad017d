import type { Frame } from "../../../src/wire/framing/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";
import type {
  Finish,
  NeutralResponse,
  Part,
  ProviderFamily,
  StreamEvent,
  Usage,
} from "../../../src/model/mod.ts";
import { mergeUsage, SYNTHETIC_STOP, ZERO_USAGE } from "../../../src/model/mod.ts";

/** Runs values through a TransformStream and collects what comes out. */
export async function pipeAll<I, O>(inputs: readonly I[], stream: TransformStream<I, O>): Promise<O[]> {
  const out: O[] = [];
  const writer = stream.writable.getWriter();
  const reading = (async () => {
    for await (const value of stream.readable) out.push(value);
  })();
  for (const input of inputs) await writer.write(input);
  await writer.close();
  await reading;
  return out;
}

/** SSE text → frames, as the executor does before a codec sees them. */
export function framesOf(text: string): Promise<Frame[]> {
  return pipeAll([text], sseFrames());
}

/** SSE text of Gemini chunks, one `data:` line per JSON value. */
export function sseText(chunks: readonly unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}

interface OpenBlock {
  kind: "text" | "reasoning" | "toolCall";
  text: string;
  signature?: string;
  id?: string;
  name?: string;
  family?: ProviderFamily;
}

/** Collects neutral stream events into the response they describe (test-local reference collector). */
export function collect(events: readonly StreamEvent[]): NeutralResponse {
  let id = "";
  let model = "";
  let usage: Usage = ZERO_USAGE;
  let finish: Finish = SYNTHETIC_STOP;
  const blocks = new Map<number, OpenBlock>();
  const order: number[] = [];
  for (const event of events) {
    switch (event.type) {
      case "start":
        id = event.id;
        model = event.model;
        break;
      case "blockStart":
        blocks.set(event.index, {
          kind: event.kind,
          text: "",
          id: event.id,
          name: event.name,
          family: event.family,
        });
        order.push(event.index);
        break;
      case "textDelta":
        blocks.get(event.index)!.text += event.text;
        break;
      case "argumentsDelta":
        blocks.get(event.index)!.text += event.json;
        break;
      case "signatureDelta": {
        const block = blocks.get(event.index)!;
        block.signature = (block.signature ?? "") + event.signature;
        break;
      }
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
  const parts: Part[] = [];
  for (const index of order) {
    const block = blocks.get(index)!;
    const signed = block.signature === undefined ? {} : { signature: block.signature };
    if (block.kind === "text") parts.push({ kind: "text", text: block.text });
    else if (block.kind === "reasoning") {
      parts.push({
        kind: "reasoning",
        text: block.text,
        ...signed,
        ...(block.family ? { family: block.family } : {}),
      });
    } else {
      parts.push({
        kind: "toolCall",
        id: block.id ?? "",
        name: block.name ?? "",
        arguments: block.text,
        ...signed,
        ...(block.family ? { family: block.family } : {}),
      });
    }
  }
  // mergeUsage writes `estimated: undefined`; drop it so collected usage compares with decoded usage.
  const { estimated, ...counts } = usage;
  return { id, model, parts, finish, usage: estimated === undefined ? counts : usage };
}
