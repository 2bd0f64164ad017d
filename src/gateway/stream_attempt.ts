import type { UpstreamBody } from "../executors/call_upstream.ts";
import type { StreamEvent } from "../model/mod.ts";
import { chatPassthroughBytes, codecFor, type EncodeContext } from "../wire/mod.ts";
import type { Codec, UpstreamCodec } from "../wire/codec.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { chainSteps, type StageOutput, type StageSteps } from "../wire/shared/mod.ts";
import type { AttemptDeps, CallerContext } from "./attempt_context.ts";
import type { AttemptRecord } from "./attempt_record.ts";
import { passthroughObserver, streamMeter, StreamTally } from "./stream_meter.ts";
import { collectTurnTokens } from "./turn_token_store.ts";
import { frameSteps, openStream, type StreamFailureFrames } from "./upstream_stream.ts";
import type { FrameSource } from "./answer.ts";

/** How opening an upstream stream went: committed to the client, or a failure that can fall back. */
export type StreamStart =
  | { readonly kind: "committed"; readonly frames: FrameSource }
  | { readonly kind: "failed"; readonly message: string };

/**
 * Opens an upstream stream translated for the client. Until the upstream proves it is answering
 * nothing reaches the client, so a failure can still fall back. Once committed, the stream's end is
 * told to the attempt's record and to the request (its listener) when the client's body is over.
 */
export async function streamAttempt(
  deps: AttemptDeps,
  caller: CallerContext,
  upstreamCodec: UpstreamCodec,
  ctx: EncodeContext,
  body: UpstreamBody,
  record: AttemptRecord,
): Promise<StreamStart> {
  const clientCodec = codecFor(caller.surface, caller.endpoint);
  let committed = false;
  const tally = new StreamTally((summary) => {
    // A stream that never committed was reported as a failure already; its end belongs to no one.
    if (!committed) return;
    record.streamEnded(summary);
    caller.listener.streamEnded(summary);
  });
  const redactError = (text: string) => deps.control.redactor.redactForClient(text);
  const client = clientSteps(
    clientCodec,
    upstreamCodec,
    ctx,
    tally,
    deps.newId,
    redactError,
    collectTurnTokens((parts) => deps.turnTokens.capture(parts)),
    deps.limits.maxStreamEventChars,
  );
  const opened = await openStream(
    body,
    client.steps,
    tally,
    (message) => client.failure(redactError(message)),
    caller.timing,
  );
  if (opened.kind !== "committed") return { kind: "failed", message: opened.message };
  committed = true;
  // Committed: the upstream's first content is on its way to the client (time to first token).
  record.firstToken();
  caller.listener.firstToken();
  return opened;
}

/** The step from upstream bytes to the client's frames, and how the client's stream ends when the upstream breaks. */
interface ClientSteps {
  readonly steps: StageSteps<Uint8Array, Frame>;
  readonly failure: StreamFailureFrames;
}

/** The neutral event a broken upstream becomes for the client (a 502: the upstream failed, not the client). */
function streamFailed(message: string): StreamEvent {
  return { type: "error", status: 502, kind: "upstream", message };
}

/**
 * The frames `encoder` ends a stream with when it is told the upstream failed (every encoder renders one).
 * `started` is the stream's start event when the encoder did not see it (a passthrough): the encoder takes
 * it first, output dropped, so its error names the response the client already has (Responses clients
 * refuse a `response.failed` for another response id).
 */
function encoderFailure(
  encoder: () => StageSteps<StreamEvent, Frame>,
  started: () => StreamEvent | undefined = () => undefined,
): StreamFailureFrames {
  return (message) => {
    const frames: Frame[] = [];
    const out: StageOutput<Frame> = { enqueue: (frame) => frames.push(frame) };
    const steps = encoder();
    const start = started();
    if (start !== undefined) steps.transform(start, { enqueue: () => {} });
    steps.transform(streamFailed(message), out);
    steps.flush?.(out);
    return frames;
  };
}

/** Upstream bytes → client frames, feeding the tally on the way. */
function clientSteps(
  clientCodec: Codec,
  upstreamCodec: UpstreamCodec,
  ctx: EncodeContext,
  tally: StreamTally,
  newId: () => string,
  redactError: (text: string) => string,
  collect: StageSteps<StreamEvent, StreamEvent>,
  maxEventChars: number,
): ClientSteps {
  const framing = frameSteps(upstreamCodec, maxEventChars);
  const framed = (steps: StageSteps<Frame, Frame>) => chainSteps(framing, steps);
  const meteredEvents = () =>
    chainSteps(chainSteps(upstreamCodec.decodeStream().steps, streamMeter(tally, redactError)), collect);
  // Passthrough only when the upstream speaks the client's codec itself, not an envelope around its format.
  if ((clientCodec as UpstreamCodec) !== upstreamCodec) {
    const encoder = clientCodec.encodeFrames(ctx).steps;
    // The running encoder ends what it started (the response it announced, open blocks) with the error.
    return { steps: framed(chainSteps(meteredEvents(), encoder)), failure: encoderFailure(() => encoder) };
  }
  if (clientCodec.format === "chat_completions") {
    // The passthrough parses every chunk it does not pass as bytes; its observer meters the stream.
    const steps = chatPassthroughBytes(framing, {
      now: ctx.now,
      fallbackId: newId(),
      model: ctx.requestModel,
      observer: passthroughObserver(tally),
      redactError,
      maxEventChars,
    });
    // A chat error chunk names no response: a fresh encoder renders it alone.
    return { steps, failure: encoderFailure(() => clientCodec.encodeFrames(ctx).steps) };
  }
  // Same format on both sides: the client gets the upstream's own frames; decoded events feed the meter.
  const meter = meteredEvents();
  let started: StreamEvent | undefined;
  // The decoded events are only metered; the start event is kept for a failure's error event.
  const ignore: StageOutput<StreamEvent> = {
    enqueue: (event) => {
      if (started === undefined && event.type === "start") started = event;
    },
  };
  // A passthrough runs no encoder of the client's format: a fresh one renders the error event.
  const failure = encoderFailure(() => clientCodec.encodeFrames(ctx).steps, () => started);
  const withModel = clientCodec.streamFrameWithModel;
  const steps: StageSteps<Frame, Frame> = {
    transform(frame, out) {
      const errors = tally.errorCount;
      meter.transform(frame, ignore);
      // The client sees the model id it asked for (prefix/model or combo), as in translated streams.
      const named = withModel === undefined
        ? frame
        : { ...frame, data: withModel(frame.data, ctx.requestModel) };
      // A frame that carried an upstream error is the only one worth scanning for credentials.
      out.enqueue(tally.errorCount === errors ? named : { ...named, data: redactError(named.data) });
    },
    flush() {
      meter.flush?.(ignore);
    },
  };
  return { steps: framed(steps), failure };
}
