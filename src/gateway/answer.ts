import type { ClientFraming, Frame } from "../wire/framing/mod.ts";
import type { GatewayWarning } from "./warnings.ts";

/**
 * A client stream's frames as the gateway produces them, pulled one batch (one upstream read's worth) at a
 * time. Not a ReadableStream: the HTTP layer builds the one stream the client reads around it, so no extra
 * stream hop runs per chunk.
 */
export interface FrameSource {
  /**
   * The next frames, or null when the stream is over. An upstream that broke after the first frame ends
   * the stream with the client format's own error event, not a rejection.
   */
  next(): Promise<readonly Frame[] | null>;
  /** The client went away: stop the upstream; the stream's end is reported as cancelled. */
  cancel(reason?: unknown): void;
}

/** What an answer carries: one JSON value, or a stream of frames in the client's framing. */
export type AnswerBody =
  | {
    readonly kind: "json";
    /** The client's wire object (e.g. a Responses object), for code that builds on an answer. */
    readonly value: unknown;
    /** `value` as JSON text when the gateway already wrote it (for its log); written on demand otherwise. */
    readonly text?: string;
  }
  | { readonly kind: "stream"; readonly framing: ClientFraming; readonly frames: FrameSource }
  /** Bytes sent as the upstream gave them (speech audio, a transcript as text or subtitles). */
  | { readonly kind: "bytes"; readonly contentType: string; readonly bytes: ByteSource };

/** An upstream body passed through untouched, pulled one read at a time (as FrameSource, without frames). */
export interface ByteSource {
  /** The next chunk, or null at the end; rejects when the upstream broke (bytes have no error event). */
  next(): Promise<Uint8Array | null>;
  /** The client went away: stop the upstream. */
  cancel(reason?: unknown): void;
}

/** A bytes answer (status 200). */
export function bytesAnswer(
  contentType: string,
  bytes: ByteSource,
  warnings: readonly GatewayWarning[],
): Answer {
  return { status: 200, warnings, body: { kind: "bytes", contentType, bytes } };
}

/**
 * The gateway's answer to one client request, in neutral terms: `src/http` turns it into an HTTP response,
 * SSE/NDJSON bytes or WebSocket messages; nothing in the gateway reads an answer back from bytes. Failures
 * are not answers: they leave as GatewayErrors.
 */
export interface Answer {
  readonly status: number;
  /** What translation lost, one entry per code (the `x-gateway-warnings` header over HTTP). */
  readonly warnings: readonly GatewayWarning[];
  readonly body: AnswerBody;
  /** Headers beside the body (the rate-limit headers of the client's surface). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON answer with status 200. */
export function jsonAnswer(value: unknown, warnings: readonly GatewayWarning[], text?: string): Answer {
  return { status: 200, warnings, body: { kind: "json", value, text } };
}

/** A stream answer (status 200) over `frames`. */
export function streamAnswer(
  framing: ClientFraming,
  frames: FrameSource,
  warnings: readonly GatewayWarning[],
): Answer {
  return { status: 200, warnings, body: { kind: "stream", framing, frames } };
}

/**
 * A source over frames that are all known already (a whole answer sent as a stream). `onEnd` hears how it
 * ended once: "completed" when the last frames were taken, "cancelled" when the client left first.
 */
export function fixedFrames(
  frames: readonly Frame[],
  onEnd?: (how: "completed" | "cancelled") => void,
): FrameSource {
  let taken = false;
  let ended = false;
  const end = (how: "completed" | "cancelled") => {
    if (ended) return;
    ended = true;
    onEnd?.(how);
  };
  return {
    next() {
      if (taken) return Promise.resolve(null);
      taken = true;
      end("completed");
      return Promise.resolve(frames.length > 0 ? frames : null);
    },
    cancel() {
      end("cancelled");
    },
  };
}

/** Every frame of a source, in order (compaction reads a whole upstream answer before it answers). */
export async function drainFrames(source: FrameSource): Promise<Frame[]> {
  const all: Frame[] = [];
  for (let batch = await source.next(); batch !== null; batch = await source.next()) all.push(...batch);
  return all;
}
