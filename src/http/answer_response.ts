import type { Answer, ByteSource, FrameSource } from "../gateway/answer.ts";
import { byteSlab } from "../byte_slab.ts";
import { concatBytes } from "../bytes.ts";
import { WARNINGS_HEADER, warningsHeaderValue } from "../gateway/warnings.ts";
import { type ClientFraming, type Frame, frameText } from "../wire/framing/mod.ts";

const JSON_TYPE = "application/json";

/**
 * The client's HTTP response for an answer: JSON, or a stream written in its framing (SSE events or
 * NDJSON lines), with `x-gateway-warnings` when translation lost something.
 */
export function answerResponse(answer: Answer): Response {
  const body = answer.body;
  if (body.kind === "bytes") {
    const headers: Record<string, string> = { "content-type": body.contentType };
    if (answer.warnings.length > 0) headers[WARNINGS_HEADER] = warningsHeaderValue(answer.warnings);
    return new Response(passedBytes(body.bytes), { status: answer.status, headers });
  }
  const headers: Record<string, string> = body.kind === "stream"
    ? {
      "content-type": body.framing === "ndjson" ? "application/x-ndjson" : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    }
    : { "content-type": JSON_TYPE };
  if (answer.headers !== undefined) Object.assign(headers, answer.headers);
  if (answer.warnings.length > 0) headers[WARNINGS_HEADER] = warningsHeaderValue(answer.warnings);
  const content = body.kind === "stream"
    ? frameBytes(body.frames, body.framing)
    : body.text ?? JSON.stringify(body.value);
  return new Response(content, { status: answer.status, headers });
}

/**
 * The bytes of a frame source: one pull per batch of frames (one upstream read), so the stream the client
 * reads is the only stream between it and the upstream. The client leaving cancels the source.
 */
function frameBytes(source: FrameSource, framing: ClientFraming): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let frames: readonly Frame[] | null;
      try {
        frames = await source.next();
      } catch (error) {
        // The runtime logs the reason it is given; a string keeps that to one line instead of a stack.
        controller.error(String(error));
        return;
      }
      if (frames === null) {
        controller.close();
        return;
      }
      controller.enqueue(batchBytes(frames, framing));
    },
    cancel(reason) {
      source.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * One batch of frames as the bytes the client reads. Frames the gateway forwards as bytes (`wire`) are
 * written as they are, and a batch of them that sits in one buffer back to back (one upstream read) is
 * that buffer, uncopied; other frames are written from their text (encoded into the byte slab when short:
 * the bytes are let go once written).
 */
function batchBytes(frames: readonly Frame[], framing: ClientFraming): Uint8Array {
  if (framing !== "sse" || !hasWire(frames)) {
    let text = "";
    for (const frame of frames) text += frameText(frame, framing);
    return byteSlab.encode(text);
  }
  // A mixed batch is a stream's first: frames from before and after its envelope was learnt.
  return backToBack(frames) ??
    concatBytes(frames.map((frame) => frame.wire ?? byteSlab.encode(frameText(frame, "sse"))));
}

/** Whether any frame is forwarded as bytes (a loop: this runs once per batch, and needs no closure). */
function hasWire(frames: readonly Frame[]): boolean {
  for (const frame of frames) if (frame.wire !== undefined) return true;
  return false;
}

/** The one buffer every frame's `wire` sits in, back to back, or null. */
function backToBack(frames: readonly Frame[]): Uint8Array | null {
  const first = frames[0].wire;
  if (first === undefined) return null;
  let end = first.byteOffset + first.byteLength;
  for (let i = 1; i < frames.length; i++) {
    const wire = frames[i].wire;
    if (wire === undefined || wire.buffer !== first.buffer || wire.byteOffset !== end) return null;
    end += wire.byteLength;
  }
  return frames.length === 1 ? first : new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

/** The bytes of a byte source, one pull per upstream read; the client leaving cancels the source. */
function passedBytes(source: ByteSource): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Uint8Array | null;
      try {
        chunk = await source.next();
      } catch (error) {
        // Bytes have no error event of their own: the body is cut, with the reason as one log line.
        controller.error(error instanceof Error ? error.message : String(error));
        return;
      }
      // A chunk is only valid until the next read: the client gets its own copy.
      if (chunk === null) controller.close();
      else controller.enqueue(byteSlab.copy(chunk));
    },
    cancel(reason) {
      source.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
