import type { UpstreamBody } from "../executors/call_upstream.ts";
import type { NeutralResponse, StreamEvent } from "../model/mod.ts";
import type { UpstreamCodec } from "../wire/codec.ts";
import { chainSteps, EventCollector, type StageOutput } from "../wire/shared/mod.ts";
import type { AnswerLimits } from "./attempt_context.ts";
import { frameSteps } from "./upstream_stream.ts";

/** Why a collected stream is not an answer: an error event or a broken body, with the status to classify. */
export interface CollectFailure {
  readonly status: number;
  readonly message: string;
  /** Reading the body failed (a timeout, a broken connection, or the client leaving aborted it). */
  readonly readFailed?: boolean;
}

/**
 * Reads a whole upstream stream (for a client that asked for one answer from an upstream that only
 * streams) and folds its events into one response. An error event anywhere makes the attempt a failure:
 * nothing has reached the client yet, so it can still fall back. Reading stops past `maxAnswerBytes`.
 */
export async function collectStream(
  codec: UpstreamCodec,
  body: UpstreamBody,
  limits: AnswerLimits,
  model: string,
): Promise<NeutralResponse | CollectFailure> {
  const collector = new EventCollector();
  const out: StageOutput<StreamEvent> = { enqueue: (event) => collector.add(event) };
  const steps = chainSteps(frameSteps(codec, limits.maxStreamEventChars), codec.decodeStream().steps);
  let read = 0;
  for (;;) {
    let chunk: Uint8Array | null;
    try {
      chunk = await body.read();
    } catch (error) {
      return { status: 502, message: `upstream stream broke: ${(error as Error).message}`, readFailed: true };
    }
    try {
      if (chunk === null) {
        steps.flush?.(out);
        break;
      }
      read += chunk.length;
      if (read > limits.maxAnswerBytes) {
        body.cancel();
        return { status: 502, message: `upstream answer exceeds ${limits.maxAnswerBytes} bytes` };
      }
      body.committed();
      steps.transform(chunk, out);
    } catch (error) {
      // The upstream sent what cannot be framed or decoded (a corrupt event stream): its failure.
      body.cancel(error);
      return { status: 502, message: (error as Error).message };
    }
    if (collector.error) break;
  }
  const error = collector.error;
  if (error) {
    body.cancel();
    return { status: error.status, message: error.message };
  }
  return collector.response(model);
}
