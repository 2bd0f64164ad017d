import type { UpstreamBody } from "../executors/call_upstream.ts";
import type { StreamEvent } from "../model/mod.ts";
import { chatPassthroughFrames, codecFor, type EncodeContext } from "../wire/mod.ts";
import type { Codec, UpstreamCodec } from "../wire/codec.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { chainSteps, type StageOutput, type StageSteps } from "../wire/shared/mod.ts";
import type { AttemptDeps, CallerContext } from "./attempt_context.ts";
import type { AttemptRecord } from "./attempt_record.ts";
import { passthroughObserver, streamMeter, StreamTally } from "./stream_meter.ts";
import { collectTurnTokens } from "./turn_token_store.ts";
import { frameSteps, openStream } from "./upstream_stream.ts";
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
  const clientCodec = codecFor(caller.surface);
  let committed = false;
  const tally = new StreamTally((summary) => {
    // A stream that never committed was reported as a failure already; its end belongs to no one.
    if (!committed) return;
    record.streamEnded(summary);
    caller.listener.streamEnded(summary);
  });
  const steps = chainSteps(
    frameSteps(upstreamCodec, deps.limits.maxStreamEventChars),
    clientSteps(
      clientCodec,
      upstreamCodec,
      ctx,
      tally,
      deps.newId,
      (text) => deps.control.redactor.redactForClient(text),
      collectTurnTokens((parts) => deps.turnTokens.capture(parts)),
    ),
  );
  const opened = await openStream(body, steps, tally, caller.timing);
  if (opened.kind !== "committed") return { kind: "failed", message: opened.message };
  committed = true;
  // Committed: the upstream's first content is on its way to the client (time to first token).
  record.firstToken();
  caller.listener.firstToken();
  return opened;
}

/** Upstream frames → client frames, feeding the tally on the way. */
function clientSteps(
  clientCodec: Codec,
  upstreamCodec: UpstreamCodec,
  ctx: EncodeContext,
  tally: StreamTally,
  newId: () => string,
  redactError: (text: string) => string,
  collect: StageSteps<StreamEvent, StreamEvent>,
): StageSteps<Frame, Frame> {
  const meteredEvents = () =>
    chainSteps(chainSteps(upstreamCodec.decodeStream().steps, streamMeter(tally, redactError)), collect);
  // Passthrough only when the upstream speaks the client's codec itself, not an envelope around its format.
  if ((clientCodec as UpstreamCodec) !== upstreamCodec) {
    return chainSteps(meteredEvents(), clientCodec.encodeFrames(ctx).steps);
  }
  if (clientCodec.format === "chat_completions") {
    // The passthrough parses every chunk anyway; its observer meters the stream (one parse per chunk).
    return chatPassthroughFrames({
      now: ctx.now,
      fallbackId: newId(),
      model: ctx.requestModel,
      observer: passthroughObserver(tally),
      redactError,
    })
      .steps;
  }
  // Same format on both sides: the client gets the upstream's own frames; decoded events feed the meter.
  const meter = meteredEvents();
  const ignore: StageOutput<StreamEvent> = { enqueue: () => {} };
  const withModel = clientCodec.streamFrameWithModel;
  return {
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
}
