import type { NeutralRequest, NeutralResponse } from "../model/mod.ts";
import type { EncodeContext } from "../wire/mod.ts";
import type { Codec } from "../wire/codec.ts";
import { outputTextOf } from "./attempt_record.ts";
import { responseEvents } from "./response_events.ts";
import { type GatewayWarning, WARNINGS_HEADER, warningsHeaderValue } from "./warnings.ts";

/** A whole answer in the client's wire format, and what the request log keeps of it. */
export interface EncodedAnswer {
  /** JSON text, or the complete stream text for a client that asked to stream. */
  readonly body: string;
  readonly streamed: boolean;
  /** The JSON as sent, or the output text for a stream (as a streamed answer is logged). */
  readonly logBody: string;
}

/**
 * The encode context for answering a client. `clientModel` is the model id exactly as the client sent it
 * (a thinking suffix included): Claude Code compares `message_start.model` with what it asked for.
 */
export function encodeContext(
  clientModel: string,
  endpoint: string | undefined,
  nowMs: number,
): EncodeContext {
  return { requestModel: clientModel, endpoint, now: Math.floor(nowMs / 1000) };
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
    const body = JSON.stringify(codec.encodeResponse(response, ctx));
    return { body, streamed: false, logBody: body };
  }
  let body = "";
  const encoder = codec.encodeStream(ctx).steps;
  const out = { enqueue: (chunk: string) => (body += chunk) };
  for (const event of responseEvents(response)) encoder.transform(event, out);
  encoder.flush?.(out);
  return { body, streamed: true, logBody: outputTextOf(response) };
}

/** The client's HTTP response: JSON or a stream in the codec's framing, with the warnings header if any. */
export function answerResponse(
  codec: Codec,
  body: ReadableStream<Uint8Array> | string,
  streamed: boolean,
  warnings: readonly GatewayWarning[],
): Response {
  const headers: Record<string, string> = streamed
    ? {
      "content-type": codec.framing === "ndjson"
        ? "application/x-ndjson"
        : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    }
    : { "content-type": "application/json" };
  if (warnings.length > 0) headers[WARNINGS_HEADER] = warningsHeaderValue(warnings);
  return new Response(body, { headers });
}
