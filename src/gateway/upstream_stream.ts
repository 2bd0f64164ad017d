import type { UpstreamBody } from "../executors/call_upstream.ts";
import type { UpstreamCodec } from "../wire/codec.ts";
import type { FrameSource } from "./answer.ts";
import {
  eventStreamFrames,
  type Frame,
  ndjsonFrames,
  splitJoinedData,
  sseFrames,
} from "../wire/framing/mod.ts";
import { chainSteps, type StageOutput, type StageSteps } from "../wire/shared/mod.ts";
import type { RequestTiming } from "./request_timing.ts";
import type { StreamTally } from "./stream_meter.ts";

/** Decode options for a chunk that may end inside a character (one object, not one per chunk). */
const STREAMING = { stream: true } as const;

/** UTF-8 bytes → text, carrying split characters over to the next chunk. */
function utf8Steps(): StageSteps<Uint8Array, string> {
  const decoder = new TextDecoder();
  return {
    transform(chunk, out) {
      const text = decoder.decode(chunk, STREAMING);
      if (text !== "") out.enqueue(text);
    },
    flush(out) {
      const text = decoder.decode();
      if (text !== "") out.enqueue(text);
    },
  };
}

/**
 * Upstream bytes → frames in the upstream codec's framing, as one synchronous step. An event or line
 * longer than `maxEventChars` (`limits.max_stream_event_chars`) throws a 502 GatewayError.
 */
export function frameSteps(codec: UpstreamCodec, maxEventChars?: number): StageSteps<Uint8Array, Frame> {
  // Binary event-stream messages are bounded in bytes by their own decoder (and checksummed).
  if (codec.framing === "eventstream") return eventStreamFrames().steps;
  const options = { maxEventChars };
  const framing = codec.framing === "ndjson" ? ndjsonFrames(options) : sseFrames(options);
  return chainSteps(chainSteps(utf8Steps(), framing.steps), splitJoinedData().steps);
}

/** How an upstream stream started. */
export type OpenedStream =
  | { readonly kind: "committed"; readonly frames: FrameSource }
  | { readonly kind: "error" | "empty"; readonly message: string };

/**
 * The client's last frames when its stream cannot go on: the client format's own error event (chat
 * completions error chunk, messages `event: error`, responses `response.failed`, …), so its SDK reports a
 * failure instead of reading a truncated stream as a finished answer.
 */
export type StreamFailureFrames = (message: string) => Frame[];

/**
 * Runs an upstream stream through `steps` (bytes in, client frames out) until the tally shows the
 * upstream is really answering. Until then nothing has reached the client: an error, a broken body or
 * an end without content comes back as a failure the caller can fall back from. Once committed, the
 * rest is pumped on demand, one upstream read per `next()`; the tally is reported when the last frames
 * are taken ("completed"), the upstream breaks ("failed": the client's stream ends with `failure`'s
 * frames) or the client cancels ("cancelled").
 *
 * The steps run as plain calls per upstream read: one stream hop per chunk instead of one per stage.
 */
export async function openStream(
  upstream: UpstreamBody,
  steps: StageSteps<Uint8Array, Frame>,
  tally: StreamTally,
  failure: StreamFailureFrames,
  timing?: RequestTiming,
): Promise<OpenedStream> {
  const pending: Frame[] = [];
  const out: StageOutput<Frame> = { enqueue: (frame) => pending.push(frame) };
  while (tally.firstSignal === null) {
    let chunk: Uint8Array | null;
    timing?.waitStart();
    try {
      chunk = await upstream.read();
    } catch (error) {
      return { kind: "error", message: `upstream stream broke: ${(error as Error).message}` };
    } finally {
      timing?.waitEnd();
    }
    if (chunk === null) {
      steps.flush?.(out);
      if (tally.firstSignal === "commit") {
        return { kind: "committed", frames: finishedFrames(pending, tally) };
      }
      return tally.firstSignal === "error"
        ? { kind: "error", message: tally.errorMessage ?? "upstream error" }
        : { kind: "empty", message: "upstream stream ended without any content" };
    }
    try {
      steps.transform(chunk, out);
    } catch (error) {
      // The upstream sent what cannot be framed or decoded (e.g. an over-long event): its failure.
      upstream.cancel(error);
      return { kind: "error", message: (error as Error).message };
    }
  }
  if (tally.firstSignal === "error") {
    upstream.cancel(new Error("upstream sent an error before any content"));
    return { kind: "error", message: tally.errorMessage ?? "upstream error" };
  }
  // From here the first-content deadline is met; a total duration limit, if any, takes over.
  upstream.committed();
  return { kind: "committed", frames: pumpedFrames(pending, upstream, steps, tally, failure) };
}

/**
 * Frames of a stream that already ended while it was being opened. The tally is reported when the
 * client takes them (or cancels), once the caller has set up what the report feeds.
 */
function finishedFrames(frames: Frame[], tally: StreamTally): FrameSource {
  let ended = false;
  return {
    next() {
      if (ended) return Promise.resolve(null);
      ended = true;
      if (frames.length > 0) tally.sent();
      tally.report("completed");
      return Promise.resolve(frames.length > 0 ? frames : null);
    },
    cancel() {
      if (ended) return;
      ended = true;
      tally.report("cancelled");
    },
  };
}

/** The client's frames: `first`, then whatever `steps` make of each further upstream chunk. */
function pumpedFrames(
  first: Frame[],
  upstream: UpstreamBody,
  steps: StageSteps<Uint8Array, Frame>,
  tally: StreamTally,
  failure: StreamFailureFrames,
): FrameSource {
  let pending = first;
  let ended = false;
  const out: StageOutput<Frame> = { enqueue: (frame) => pending.push(frame) };
  const broke = (message: string): readonly Frame[] | null => {
    ended = true;
    tally.errorIfNone(message);
    // After the first byte there is no fallback: what was translated still goes out, then the client
    // format's error event ends the stream.
    const last = [...pending, ...failure(message)];
    pending = [];
    if (last.length > 0) tally.sent();
    tally.report("failed");
    return last.length > 0 ? last : null;
  };
  return {
    async next() {
      if (ended) return null;
      while (pending.length === 0) {
        let chunk: Uint8Array | null;
        try {
          chunk = await upstream.read();
        } catch (error) {
          return broke(`upstream stream broke: ${(error as Error).message}`);
        }
        if (chunk === null) {
          steps.flush?.(out);
          ended = true;
          const last = pending;
          if (last.length > 0) tally.sent();
          tally.report("completed");
          return last.length > 0 ? last : null;
        }
        try {
          steps.transform(chunk, out);
        } catch (error) {
          // As a broken stream, but the upstream is still sending: stop it.
          upstream.cancel(error);
          return broke((error as Error).message);
        }
      }
      const batch = pending;
      pending = [];
      tally.sent();
      return batch;
    },
    // Only the client cancels (upstream failures arrive through `read`).
    cancel(reason) {
      if (ended) return;
      ended = true;
      upstream.cancel(reason);
      tally.report("cancelled");
    },
  };
}
