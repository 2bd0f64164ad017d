import type { StreamEvent } from "../model/mod.ts";
import type { Codec } from "../wire/codec.ts";
import { type Frame, ndjsonFrames, splitJoinedData, sseFrames } from "../wire/framing/mod.ts";

/** Upstream bytes → frames in the upstream codec's framing. */
export function upstreamFrames(body: ReadableStream<Uint8Array>, codec: Codec): ReadableStream<Frame> {
  return (body as ReadableStream<BufferSource>)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(codec.framing === "ndjson" ? ndjsonFrames() : sseFrames())
    .pipeThrough(splitJoinedData());
}

/** True for events that prove the upstream is really answering (content or a finish). */
function isCommitEvent(event: StreamEvent): boolean {
  switch (event.type) {
    case "textDelta":
    case "argumentsDelta":
    case "finish":
      return true;
    case "blockStart":
      return event.kind === "toolCall";
    case "start":
    case "signatureDelta":
    case "blockEnd":
    case "usage":
    case "error":
      return false;
  }
}

/** The outcome of waiting for the first real event of an upstream stream. */
export type PeekResult =
  | { readonly kind: "committed"; readonly buffered: StreamEvent[] }
  | { readonly kind: "error"; readonly message: string; readonly buffered: StreamEvent[] }
  | { readonly kind: "empty"; readonly buffered: StreamEvent[] };

/**
 * Reads events until the upstream proves it is answering. Until then nothing has reached the client,
 * so an error event, a broken body or an end without content still falls back to the next account.
 */
export async function peekStream(reader: ReadableStreamDefaultReader<StreamEvent>): Promise<PeekResult> {
  const buffered: StreamEvent[] = [];
  while (true) {
    let next: ReadableStreamReadResult<StreamEvent>;
    try {
      next = await reader.read();
    } catch (error) {
      return { kind: "error", message: `upstream stream broke: ${(error as Error).message}`, buffered };
    }
    if (next.done) return { kind: "empty", buffered };
    buffered.push(next.value);
    if (next.value.type === "error") return { kind: "error", message: next.value.message, buffered };
    if (isCommitEvent(next.value)) return { kind: "committed", buffered };
  }
}

/** A stream that replays `buffered` and then the rest of `reader`; cancelling it cancels the reader. */
export function replay(
  buffered: readonly StreamEvent[],
  reader: ReadableStreamDefaultReader<StreamEvent>,
): ReadableStream<StreamEvent> {
  let index = 0;
  return new ReadableStream<StreamEvent>({
    async pull(controller) {
      if (index < buffered.length) {
        controller.enqueue(buffered[index++]);
        return;
      }
      try {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/** Drains a reader in the background (the metering branch of a passthrough stream). */
export async function drain(reader: ReadableStreamDefaultReader<StreamEvent>): Promise<void> {
  try {
    while (!(await reader.read()).done) { /* the meter inside the pipeline does the work */ }
  } catch { /* the meter has already recorded the failure */ }
}

/** Re-serialises a frame exactly as it came (generic same-format passthrough). */
export function frameText(frame: Frame, framing: Codec["framing"]): string {
  if (framing === "ndjson") return frame.data + "\n";
  return frame.event ? `event: ${frame.event}\ndata: ${frame.data}\n\n` : `data: ${frame.data}\n\n`;
}
