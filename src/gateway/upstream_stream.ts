import type { UpstreamBody } from "../executors/call_upstream.ts";
import type { Codec, UpstreamCodec } from "../wire/codec.ts";
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

/** Re-serialises a frame exactly as it came (generic same-format passthrough). */
export function frameText(frame: Frame, framing: Codec["framing"]): string {
  if (framing === "ndjson") return frame.data + "\n";
  return frame.event ? `event: ${frame.event}\ndata: ${frame.data}\n\n` : `data: ${frame.data}\n\n`;
}

/** How an upstream stream started. */
export type OpenedStream =
  | { readonly kind: "committed"; readonly body: ReadableStream<Uint8Array> }
  | { readonly kind: "error" | "empty"; readonly message: string };

/**
 * Runs an upstream stream through `steps` (bytes in, client wire text out) until the tally shows the
 * upstream is really answering. Until then nothing has reached the client: an error, a broken body or
 * an end without content comes back as a failure the caller can fall back from. Once committed, the
 * rest is pumped on demand into the client's body; the tally is reported when the body completes
 * ("completed"), the upstream breaks ("failed") or the client cancels ("cancelled").
 *
 * The steps run as plain calls per upstream read: one stream hop per chunk instead of one per stage.
 */
export async function openStream(
  upstream: UpstreamBody,
  steps: StageSteps<Uint8Array, string>,
  tally: StreamTally,
  timing?: RequestTiming,
): Promise<OpenedStream> {
  let pending = "";
  const out: StageOutput<string> = { enqueue: (text) => (pending += text) };
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
      if (tally.firstSignal === "commit") return { kind: "committed", body: finishedBody(pending, tally) };
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
  return { kind: "committed", body: pumpedBody(pending, upstream, steps, tally) };
}

/**
 * A body for a stream that already ended while it was being opened. The tally is reported when the
 * client reads (or cancels) it, once the caller has set up what the report feeds.
 */
function finishedBody(text: string, tally: StreamTally): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (bytes.length > 0) {
        controller.enqueue(bytes);
        tally.sent();
      }
      controller.close();
      tally.report("completed");
    },
    cancel() {
      tally.report("cancelled");
    },
  }, { highWaterMark: 0 });
}

/** The client's body: `first`, then whatever `steps` make of each further upstream chunk. */
function pumpedBody(
  first: string,
  upstream: UpstreamBody,
  steps: StageSteps<Uint8Array, string>,
  tally: StreamTally,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending = first;
  const out: StageOutput<string> = { enqueue: (text) => (pending += text) };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (pending === "") {
        let chunk: Uint8Array | null;
        try {
          chunk = await upstream.read();
        } catch (error) {
          // After the first byte there is no fallback: the client sees the stream cut short. The runtime
          // logs the reason it is given; a string keeps that to one line instead of a stack trace.
          const message = `upstream stream broke: ${(error as Error).message}`;
          tally.errorIfNone(message);
          tally.report("failed");
          controller.error(`gateway: ${message} (the client's stream was cut short)`);
          return;
        }
        if (chunk === null) {
          steps.flush?.(out);
          if (pending !== "") {
            controller.enqueue(encoder.encode(pending));
            tally.sent();
          }
          controller.close();
          tally.report("completed");
          return;
        }
        try {
          steps.transform(chunk, out);
        } catch (error) {
          // As a broken stream, but the upstream is still sending: stop it.
          const message = (error as Error).message;
          upstream.cancel(error);
          tally.errorIfNone(message);
          tally.report("failed");
          controller.error(`gateway: ${message} (the client's stream was cut short)`);
          return;
        }
      }
      controller.enqueue(encoder.encode(pending));
      tally.sent();
      pending = "";
    },
    // Only the client cancels this body (upstream failures arrive through `read`).
    cancel(reason) {
      upstream.cancel(reason);
      tally.report("cancelled");
    },
  }, { highWaterMark: 0 });
}
