import type { NeutralRequest, NeutralResponse } from "../model/mod.ts";
import type { EncodeContext } from "../wire/mod.ts";
import type { Codec } from "../wire/codec.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { outputTextOf } from "./attempt_record.ts";
import { responseEvents } from "./response_events.ts";

/** A whole answer in the client's wire format, and what the request log keeps of it. */
export type EncodedAnswer =
  | {
    readonly streamed: false;
    /** The client's wire object, and the JSON text sent (and logged). */
    readonly value: unknown;
    readonly text: string;
  }
  | {
    readonly streamed: true;
    /** Every frame of the stream, in the client's framing. */
    readonly frames: readonly Frame[];
    /** The output text (as a streamed answer is logged). */
    readonly logBody: string;
  };

/**
 * The encode context for answering a client. `clientModel` is the model id exactly as the client sent it
 * (a thinking suffix included): Claude Code compares `message_start.model` with what it asked for.
 */
export function encodeContext(
  clientModel: string,
  endpoint: string | undefined,
  nowMs: number,
  answerId?: string,
): EncodeContext {
  return {
    requestModel: clientModel,
    endpoint,
    now: Math.floor(nowMs / 1000),
    ...(answerId !== undefined ? { answerId } : {}),
  };
}

/**
 * Encodes a whole answer for the client: JSON, or one complete stream for a client that asked to stream
 * (the upstream ignored stream:true, or fusion answered).
 */
export function encodeAnswer(
  codec: Codec,
  request: NeutralRequest,
  response: NeutralResponse,
  ctx: EncodeContext,
): EncodedAnswer {
  if (!request.stream) {
    const value = codec.encodeResponse(response, ctx);
    return { streamed: false, value, text: JSON.stringify(value) };
  }
  const frames: Frame[] = [];
  const encoder = codec.encodeFrames(ctx).steps;
  const out = { enqueue: (frame: Frame) => frames.push(frame) };
  for (const event of responseEvents(response)) encoder.transform(event, out);
  encoder.flush?.(out);
  return { streamed: true, frames, logBody: outputTextOf(response) };
}
