import type { Frame } from "./frame.ts";
import { StreamStage } from "../shared/stream_stage.ts";

/** Splits NDJSON text into one frame per non-blank line (a last line without "\n" included). */
export function ndjsonFrames(): StreamStage<string, Frame> {
  let buffer = "";
  return new StreamStage<string, Frame>({
    transform(chunk, controller) {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const line = buffer.slice(0, newline).trim();
        if (line !== "") controller.enqueue({ data: line });
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
    },
    flush(controller) {
      const line = buffer.trim();
      if (line !== "") controller.enqueue({ data: line });
    },
  });
}

/** Serialises one NDJSON line. */
export function ndjsonLine(value: unknown): string {
  return JSON.stringify(value) + "\n";
}
