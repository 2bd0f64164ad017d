import type { Frame } from "./frame.ts";
import { type StageOutput, StreamStage } from "../shared/stream_stage.ts";

/**
 * Parses SSE text into frames per the HTML spec's rules that matter for model APIs: `data:` lines
 * joined with "\n", `event:` names, comments ignored, CRLF/CR/LF line ends, and a final frame
 * without a trailing blank line still emitted at end of stream (upstreams often omit it).
 */
export function sseFrames(): StreamStage<string, Frame> {
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];
  let sawCr = false;

  const dispatch = (controller: StageOutput<Frame>) => {
    if (data.length > 0) {
      controller.enqueue(event ? { event, data: data.join("\n") } : { data: data.join("\n") });
    }
    event = undefined;
    data = [];
  };

  const line = (text: string, controller: StageOutput<Frame>) => {
    if (text === "") return dispatch(controller);
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  };

  return new StreamStage<string, Frame>({
    transform(chunk, controller) {
      let start = 0;
      let text = buffer + chunk;
      if (sawCr && text.startsWith("\n")) text = text.slice(1);
      sawCr = false;
      if (!text.includes("\r")) {
        // LF line ends only (nearly every upstream): the engine's search finds them faster than a loop.
        for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
          line(text.slice(start, i), controller);
          start = i + 1;
        }
        buffer = text.slice(start);
        return;
      }
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(text.slice(start, i), controller);
        if (c === 13) {
          if (i + 1 === text.length) sawCr = true;
          else if (text.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = text.slice(start);
    },
    flush(controller) {
      if (buffer !== "") line(buffer, controller);
      dispatch(controller);
    },
  });
}

/** Serialises one SSE event; `data` is already JSON text (or a sentinel like `[DONE]`). */
export function sseEvent(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

/**
 * Upstreams that forget the blank line between events make several `data:` lines join into one frame.
 * JSON never contains a raw newline, so a multi-line frame that is not valid JSON as a whole is split
 * back into one frame per line (the spec's "blank-line separators are restored").
 */
export function splitJoinedData(): StreamStage<Frame, Frame> {
  return new StreamStage<Frame, Frame>({
    transform(frame, controller) {
      if (!frame.data.includes("\n") || isJson(frame.data)) return controller.enqueue(frame);
      for (const line of frame.data.split("\n")) {
        if (line.trim() !== "") {
          controller.enqueue(frame.event ? { event: frame.event, data: line } : { data: line });
        }
      }
    },
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
