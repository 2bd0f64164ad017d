import type { Frame } from "./frame.ts";
import { LineSplitter } from "./line_splitter.ts";
import { type FramingOptions, MAX_EVENT_CHARS, overlongEvent } from "./event_limit.ts";
import { StreamStage } from "../shared/stream_stage.ts";

/**
 * Splits NDJSON text into one frame per non-blank line (a last line without "\n" included). Work is
 * linear in the text; a line longer than the limit throws (see `overlongEvent`).
 */
export function ndjsonFrames(options: FramingOptions = {}): StreamStage<string, Frame> {
  const limit = options.maxEventChars ?? MAX_EVENT_CHARS;
  const lines = new LineSplitter({ crEndsLines: false, scanned: options.scanned });
  return new StreamStage<string, Frame>({
    transform(chunk, controller) {
      lines.push(chunk, (text) => {
        const line = text.trim();
        if (line.length > limit) throw overlongEvent(limit);
        if (line !== "") controller.enqueue({ data: line });
      });
      if (lines.pendingChars > limit) throw overlongEvent(limit);
    },
    flush(controller) {
      const line = lines.rest().trim();
      if (line !== "") controller.enqueue({ data: line });
    },
  });
}

/** Serialises one NDJSON line. */
export function ndjsonLine(value: unknown): string {
  return JSON.stringify(value) + "\n";
}
