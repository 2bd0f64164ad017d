import { byteSlab } from "../../byte_slab.ts";
import type { Frame } from "../framing/mod.ts";
import type { StageOutput, StageSteps } from "../shared/stream_stage.ts";
import type { ContentTemplate } from "./content_template.ts";
import { chatPassthroughWithLane, type PassthroughOptions } from "./passthrough.ts";

const LF = 0x0a;
const DATA_FIELD = new TextEncoder().encode("data: ");
const EVENT_END = new TextEncoder().encode("\n\n");
/** Fails on bytes that are not UTF-8, which the text path would have turned into U+FFFD. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const UTF8 = new TextDecoder();

/** Options of {@link chatPassthroughBytes}: the passthrough's, and the framing's event limit. */
export interface PassthroughBytesOptions extends PassthroughOptions {
  /** `limits.max_stream_event_chars`: a longer event is left to the framing, which refuses it. */
  readonly maxEventChars: number;
}

/**
 * The chat-completions passthrough over the upstream's bytes. Once the passthrough has learnt its stream's
 * envelope (see ContentTemplate), an upstream read made only of whole `data: …` events in that envelope,
 * each with plain content, is checked and forwarded as bytes: no decoding to text, no line splitting, no
 * frames rebuilt and encoded again. The client gets the upstream's own bytes, or the same bytes with the
 * model renamed in the envelope. Every other read, and every read after one that ended inside an event,
 * goes through `framing` and the passthrough's frame path as before; both paths give the same output and
 * the same metering (tests/wire/chat_completions/passthrough_bytes_test.ts drives them side by side).
 */
export function chatPassthroughBytes(
  framing: StageSteps<Uint8Array, Frame>,
  options: PassthroughBytesOptions,
): StageSteps<Uint8Array, Frame> {
  const { stage, lane } = chatPassthroughWithLane(options);
  const passthrough = stage.steps;
  /** Whether the framing holds nothing of an earlier read (the last read ended with a blank line). */
  let aligned = true;
  let encoded: EncodedEnvelope | null = null;
  let target: StageOutput<Frame> = { enqueue: () => {} };
  const framed: StageOutput<Frame> = { enqueue: (frame) => passthrough.transform(frame, target) };

  return {
    transform(chunk, out) {
      if (chunk.length === 0) return;
      // The envelope is learnt on the frame path, so the framing has seen the stream's start (its BOM).
      const envelope = aligned ? lane.envelope() : null;
      if (envelope !== null) {
        if (encoded?.upstream !== envelope.upstream) encoded = encodeEnvelope(envelope);
        const events = matchedEvents(chunk, encoded, options.maxEventChars);
        if (events !== null) {
          for (const content of events.contents) lane.matched(content);
          for (const frame of wireFrames(chunk, events, encoded)) out.enqueue(frame);
          return;
        }
      }
      target = out;
      framing.transform(chunk, framed);
      aligned = endsWithBlankLine(chunk);
    },
    flush(out) {
      target = out;
      framing.flush?.(framed);
      passthrough.flush?.(out);
    },
  };
}

/** The envelope's prefix and suffix as bytes, upstream's and client's. */
interface EncodedEnvelope {
  readonly upstream: ContentTemplate;
  readonly prefix: Uint8Array;
  readonly suffix: Uint8Array;
  /**
   * What the client gets around each body: `data: ` and the client's prefix, the client's suffix and the
   * blank line; null when that is the upstream's own bytes (no rename).
   */
  readonly client: { readonly head: Uint8Array; readonly tail: Uint8Array } | null;
}

function encodeEnvelope(envelope: { upstream: ContentTemplate; client: ContentTemplate }): EncodedEnvelope {
  const encoder = new TextEncoder();
  const { upstream, client } = envelope;
  return {
    upstream,
    prefix: encoder.encode(upstream.prefix),
    suffix: encoder.encode(upstream.suffix),
    client: client === upstream
      ? null
      : { head: encoder.encode(`data: ${client.prefix}`), tail: encoder.encode(`${client.suffix}\n\n`) },
  };
}

/** Where each event's content body lies in a read, and the content as text. */
interface MatchedEvents {
  /** Start and end of each content body, two numbers per event. */
  readonly bodies: number[];
  readonly contents: string[];
}

/**
 * The events of `chunk` when it is nothing but whole `data: <envelope with content>` events, each ended by
 * a blank line; null when anything in it needs the text path (another field, a comment, a CR, an event
 * split across reads, content with a quote, escape, control character or U+2028/U+2029, bytes that are not
 * UTF-8, an event over the limit).
 */
function matchedEvents(
  chunk: Uint8Array,
  envelope: EncodedEnvelope,
  maxEventChars: number,
): MatchedEvents | null {
  const { prefix, suffix } = envelope;
  const bodies: number[] = [];
  const contents: string[] = [];
  let at = 0;
  while (at < chunk.length) {
    if (!startsWith(chunk, at, DATA_FIELD)) return null;
    const payload = at + DATA_FIELD.length;
    const lineEnd = chunk.indexOf(LF, payload);
    if (lineEnd < 0 || chunk[lineEnd + 1] !== LF) return null;
    // Bytes are at least as many as the text's characters: within the limit here, within it there.
    if (lineEnd - payload + 1 > maxEventChars) return null;
    const bodyStart = payload + prefix.length;
    const bodyEnd = lineEnd - suffix.length;
    if (bodyEnd <= bodyStart || !startsWith(chunk, payload, prefix) || !startsWith(chunk, bodyEnd, suffix)) {
      return null;
    }
    const content = plainContent(chunk, bodyStart, bodyEnd);
    if (content === null) return null;
    bodies.push(bodyStart, bodyEnd);
    contents.push(content);
    at = lineEnd + 2;
  }
  return contents.length > 0 ? { bodies, contents } : null;
}

/**
 * The text of a content body that a client can take byte for byte (as matchContentTemplate accepts it
 * without a JSON check), or null: no quote, backslash, control character or CR, no U+2028/U+2029, UTF-8.
 */
function plainContent(chunk: Uint8Array, start: number, end: number): string | null {
  let ascii = true;
  for (let i = start; i < end; i++) {
    const byte = chunk[i];
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return null;
    if (byte >= 0x80) {
      ascii = false;
      // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
      if (byte === 0xe2 && chunk[i + 1] === 0x80 && (chunk[i + 2] === 0xa8 || chunk[i + 2] === 0xa9)) {
        return null;
      }
    }
  }
  const body = chunk.subarray(start, end);
  if (ascii) return UTF8.decode(body);
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    return null;
  }
}

/**
 * One frame per event, each a view into one buffer the client's body gets as a whole: a copy of the read
 * (the connection reuses its buffer), or the events rebuilt in the client's envelope; from the byte slab
 * when small (they are let go once written).
 */
function wireFrames(chunk: Uint8Array, events: MatchedEvents, envelope: EncodedEnvelope): WireFrame[] {
  const { bodies } = events;
  const frames: WireFrame[] = [];
  const client = envelope.client;
  if (client === null) {
    const copy = byteSlab.copy(chunk);
    if (bodies.length === 2) return [new WireFrame(copy)];
    let at = 0;
    for (let i = 0; i < bodies.length; i += 2) {
      const end = bodies[i + 1] + envelope.suffix.length + EVENT_END.length;
      frames.push(new WireFrame(copy.subarray(at, end)));
      at = end;
    }
    return frames;
  }
  const { head, tail } = client;
  let size = 0;
  for (let i = 0; i < bodies.length; i += 2) size += head.length + bodies[i + 1] - bodies[i] + tail.length;
  const out = byteSlab.take(size);
  let at = 0;
  for (let i = 0; i < bodies.length; i += 2) {
    const start = at;
    out.set(head, at);
    at += head.length;
    // Bodies are short: a loop costs less than a view and a `set` per body.
    for (let b = bodies[i]; b < bodies[i + 1]; b++) out[at++] = chunk[b];
    out.set(tail, at);
    at += tail.length;
    frames.push(new WireFrame(bodies.length === 2 ? out : out.subarray(start, at)));
  }
  return frames;
}

/** A frame forwarded as bytes; its data text is decoded only if something reads it. */
class WireFrame implements Frame {
  readonly wire: Uint8Array;

  constructor(wire: Uint8Array) {
    this.wire = wire;
  }

  get data(): string {
    return UTF8.decode(this.wire.subarray(DATA_FIELD.length, this.wire.length - EVENT_END.length));
  }
}

function startsWith(chunk: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > chunk.length) return false;
  for (let i = 0; i < bytes.length; i++) if (chunk[at + i] !== bytes[i]) return false;
  return true;
}

function endsWithBlankLine(chunk: Uint8Array): boolean {
  return chunk.length >= 2 && chunk[chunk.length - 1] === LF && chunk[chunk.length - 2] === LF;
}
