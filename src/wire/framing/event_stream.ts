import { chainSteps, type StageSteps, StreamStage } from "../shared/stream_stage.ts";
import type { Frame } from "./frame.ts";
import { crc32 } from "./crc32.ts";
import { corruptEventStream, type EventStreamHeader, parseHeaders } from "./event_stream_headers.ts";

export type { EventStreamHeader, EventStreamHeaderValue } from "./event_stream_headers.ts";
export { corruptEventStream } from "./event_stream_headers.ts";

/** One decoded AWS event-stream message: its typed headers in wire order and its raw payload. */
export interface EventStreamMessage {
  readonly headers: readonly EventStreamHeader[];
  readonly payload: Uint8Array;
}

/** Prelude (total length, headers length, prelude CRC) plus the trailing message CRC. */
const OVERHEAD = 16;
const PRELUDE = 12;
/** Largest message accepted; model events are kilobytes, and a corrupt length must not grow memory. */
export const MAX_EVENT_STREAM_MESSAGE = 16 * 1024 * 1024;

/** The value of a string header, or undefined when absent or of another type. */
export function stringHeader(message: EventStreamMessage, name: string): string | undefined {
  for (const header of message.headers) {
    if (header.name === name && header.value.type === "string") return header.value.value;
  }
  return undefined;
}

/**
 * Decodes binary AWS event-stream bytes into messages, whatever the chunking of the reads. Both CRC-32
 * checksums are verified (the prelude's before its lengths are trusted, the message's before any header
 * is read), so a flipped byte anywhere is an error, never a different message. Bytes left over at the end
 * of the stream are a truncated message, also an error.
 */
export function decodeEventStream(
  maxMessage = MAX_EVENT_STREAM_MESSAGE,
): StreamStage<Uint8Array, EventStreamMessage> {
  // Reads are kept as a list and joined only once a prelude or a whole message is there, so a large
  // message arriving in many small reads costs one copy, not one per read.
  let chunks: Uint8Array[] = [];
  let size = 0;
  /** Total length of the message whose prelude has been checked, or 0 while waiting for one. */
  let expected = 0;

  const joined = (): Uint8Array => {
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    chunks = [out];
    return out;
  };

  return new StreamStage<Uint8Array, EventStreamMessage>({
    transform(chunk, out) {
      if (chunk.length === 0) return;
      chunks.push(chunk);
      size += chunk.length;
      while (size >= (expected || PRELUDE)) {
        const bytes = joined();
        if (expected === 0) {
          expected = checkPrelude(bytes, maxMessage);
          continue;
        }
        out.enqueue(parseMessage(bytes, expected));
        const rest = bytes.subarray(expected);
        chunks = rest.length > 0 ? [rest] : [];
        size = rest.length;
        expected = 0;
      }
      // A reader may reuse a chunk's memory for the next read: what is kept of it must be a copy.
      if (size > 0) chunks = chunks.map((c) => c.buffer === chunk.buffer ? c.slice() : c);
    },
    flush() {
      if (size > 0) {
        throw corruptEventStream(`the stream ended inside a message (${size} bytes left over)`);
      }
    },
  });
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/** Verifies the prelude at the start of `bytes` and returns the message's total length. */
function checkPrelude(bytes: Uint8Array, maxMessage: number): number {
  const total = u32(bytes, 0);
  const headersLength = u32(bytes, 4);
  if (crc32(bytes, 0, 8) !== u32(bytes, 8)) {
    throw corruptEventStream("prelude checksum mismatch");
  }
  if (total < OVERHEAD) throw corruptEventStream(`message length ${total} is below the minimum of 16`);
  if (total > maxMessage) {
    throw corruptEventStream(`message length ${total} exceeds the limit of ${maxMessage} bytes`);
  }
  if (headersLength > total - OVERHEAD) {
    throw corruptEventStream(`headers length ${headersLength} does not fit in a ${total}-byte message`);
  }
  return total;
}

/** Verifies the message CRC, then reads headers and payload of the message at the start of `bytes`. */
function parseMessage(bytes: Uint8Array, total: number): EventStreamMessage {
  const end = total;
  if (crc32(bytes, 0, end - 4) !== u32(bytes, end - 4)) throw corruptEventStream("message checksum mismatch");
  const headersEnd = PRELUDE + u32(bytes, 4);
  return {
    headers: parseHeaders(bytes, PRELUDE, headersEnd),
    payload: bytes.slice(headersEnd, end - 4),
  };
}

const payloadText = new TextDecoder();

/** The frame of one message: Kiro names events by `:event-type`; exceptions and errors get a prefix. */
export function eventStreamFrame(message: EventStreamMessage): Frame {
  const data = payloadText.decode(message.payload);
  switch (stringHeader(message, ":message-type")) {
    case "exception":
      return { event: `exception:${stringHeader(message, ":exception-type") ?? ""}`, data };
    case "error":
      return {
        event: `error:${stringHeader(message, ":error-code") ?? ""}`,
        data: stringHeader(message, ":error-message") ?? data,
      };
    default:
      return { event: stringHeader(message, ":event-type") ?? "", data };
  }
}

/**
 * Binary event-stream bytes → frames (`event` = the event type, `data` = the JSON payload text), so an
 * event-stream upstream plugs into the same frame → neutral-event decoding as the SSE ones.
 */
export function eventStreamFrames(maxMessage = MAX_EVENT_STREAM_MESSAGE): StreamStage<Uint8Array, Frame> {
  const toFrame: StageSteps<EventStreamMessage, Frame> = {
    transform: (message, out) => out.enqueue(eventStreamFrame(message)),
  };
  return new StreamStage(chainSteps(decodeEventStream(maxMessage).steps, toFrame));
}
