import type { Frame } from "./frame.ts";
import { type FramingOptions, MAX_EVENT_CHARS, overlongEvent } from "./event_limit.ts";
import { LineSplitter } from "./line_splitter.ts";
import { type StageOutput, StreamStage } from "../shared/stream_stage.ts";

/**
 * Parses SSE text into frames per the HTML spec's rules that matter for model APIs: `data:` lines
 * joined with "\n", `event:` names, comments ignored, CRLF/CR/LF line ends, and a final frame
 * without a trailing blank line still emitted at end of stream (upstreams often omit it). Work is
 * linear in the text; an event longer than the limit throws (see `overlongEvent`).
 */
export function sseFrames(options: FramingOptions = {}): StreamStage<string, Frame> {
  const limit = options.maxEventChars ?? MAX_EVENT_CHARS;
  const lines = new LineSplitter({ crEndsLines: true, scanned: options.scanned });
  let event: string | undefined;
  let data: string[] = [];
  /** Characters of the event so far (its data lines). */
  let size = 0;
  let out: StageOutput<Frame> = { enqueue: () => {} };

  const dispatch = () => {
    if (data.length > 0) {
      out.enqueue(event ? { event, data: data.join("\n") } : { data: data.join("\n") });
    }
    event = undefined;
    data = [];
    size = 0;
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      size += value.length + 1;
      if (size > limit) throw overlongEvent(limit);
      data.push(value);
    } else if (field === "event") event = value;
  };

  return new StreamStage<string, Frame>({
    transform(chunk, controller) {
      out = controller;
      lines.push(chunk, line);
      if (size + lines.pendingChars > limit) throw overlongEvent(limit);
    },
    flush(controller) {
      out = controller;
      const rest = lines.rest();
      if (rest !== "") line(rest);
      dispatch();
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
