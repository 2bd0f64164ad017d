import type { Frame } from "./frame.ts";
import { type StageOutput, StreamStage } from "../shared/stream_stage.ts";

/** How a client stream is framed on the wire: SSE events or NDJSON lines. */
export type ClientFraming = "sse" | "ndjson";

/**
 * One frame as wire text: an SSE event (`event:` line when named) or one NDJSON line. The only place a
 * frame becomes text, so encoders, passthroughs and the HTTP layer all write the same bytes.
 */
export function frameText(frame: Frame, framing: ClientFraming): string {
  if (framing === "ndjson") return frame.data + "\n";
  return frame.event ? `event: ${frame.event}\ndata: ${frame.data}\n\n` : `data: ${frame.data}\n\n`;
}

/**
 * A frame-producing stage as wire text, for callers that want the bytes a client would read (tests,
 * mock upstreams). The gateway itself keeps frames and writes text only at its HTTP edge.
 */
export function framedText<I>(stage: StreamStage<I, Frame>, framing: ClientFraming): StreamStage<I, string> {
  const steps = stage.steps;
  let target: StageOutput<string> = { enqueue: () => {} };
  const middle: StageOutput<Frame> = { enqueue: (frame) => target.enqueue(frameText(frame, framing)) };
  return new StreamStage<I, string>({
    transform(chunk, out) {
      target = out;
      steps.transform(chunk, middle);
    },
    flush(out) {
      target = out;
      steps.flush?.(middle);
    },
  });
}
