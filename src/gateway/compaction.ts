import { GatewayError, type UpstreamFormat } from "../model/mod.ts";
import {
  compactedResponse,
  compactionItem,
  compactionOfFrames,
  compactionResponseObject,
  compactionStream,
  nativeCompactionBody,
  outputTextOf,
  retainedUserMessages,
  summaryRequestBody,
} from "../wire/responses/compaction.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { isRecord } from "../wire/shared/mod.ts";
import { type Answer, drainFrames, fixedFrames, jsonAnswer, streamAnswer } from "./answer.ts";

/** Which of Codex's two compaction requests is being served. */
export type CompactionKind =
  /** `POST /v1/responses/compact`: a JSON object with the retained user messages and one compaction item. */
  | "endpoint"
  /** `POST /v1/responses` with a `compaction_trigger` item: a response (stream or JSON) with one compaction item. */
  | "inline";

/**
 * What a compaction needs from the dispatcher. Every dispatch serves the same client request: one
 * lifecycle, one trace, one request-log row for the native try and the summary together.
 */
export interface CompactionCalls {
  /** Dispatches a Responses body as part of the compaction request; failures throw GatewayErrors. */
  dispatch(body: unknown): Promise<Answer>;
  /** The wire format of the upstream `model` would be tried on first, or null (no state change). */
  firstUpstreamFormat(model: string): UpstreamFormat | null;
}

/** A Responses upstream's whole streamed answer that holds exactly one compaction item. */
interface NativeAnswer {
  readonly answer: Answer;
  readonly frames: readonly Frame[];
  readonly native: NonNullable<ReturnType<typeof compactionOfFrames>>;
}

/**
 * Dispatches `streamingBody` (a request that asks the upstream to compact) and takes its whole answer.
 * Null when the call failed or the answer did not hold exactly one compaction item (an upstream that
 * answered the trigger with plain text): Codex fails on anything but exactly one, so the routed model then
 * writes the summary instead.
 */
async function askNative(
  calls: CompactionCalls,
  streamingBody: Record<string, unknown>,
): Promise<NativeAnswer | null> {
  let answer: Answer;
  try {
    answer = await calls.dispatch(streamingBody);
  } catch {
    return null;
  }
  if (answer.body.kind !== "stream") return null;
  let frames: Frame[];
  try {
    frames = await drainFrames(answer.body.frames);
  } catch {
    return null;
  }
  const native = compactionOfFrames(frames);
  return native === null ? null : { answer, frames, native };
}

/**
 * `/v1/responses/compact` for a Responses upstream: the upstream compacts natively (the same input with a
 * `compaction_trigger` item, through the normal dispatch). Null when it did not answer with exactly one
 * compaction item, so the routed model writes the summary instead.
 */
async function nativeCompaction(
  calls: CompactionCalls,
  body: Record<string, unknown>,
): Promise<Answer | null> {
  const asked = await askNative(calls, nativeCompactionBody(body));
  if (asked === null) return null;
  const meta = { ...asked.native.answer, model: String(body.model) };
  return jsonAnswer(compactedResponse(meta, [...retainedUserMessages(body), asked.native.item]), []);
}

/**
 * An inline compaction (`compaction_trigger`) for a Responses upstream: the request passes through as
 * the client sent it, but always as a stream (a compaction item has no neutral part, so only the
 * same-format stream carries it through the gateway). With exactly one compaction item, a streaming
 * client gets the upstream's events verbatim and a JSON client the completed response with that item.
 * Null otherwise, so the routed model writes the summary instead.
 */
async function nativeInlineCompaction(
  calls: CompactionCalls,
  body: Record<string, unknown>,
): Promise<Answer | null> {
  const asked = await askNative(calls, { ...body, stream: true });
  if (asked === null) return null;
  const { answer, frames, native } = asked;
  if (body.stream === true) return streamAnswer("sse", fixedFrames(frames), answer.warnings);
  const meta = { ...native.answer, model: String(body.model) };
  return jsonAnswer(compactionResponseObject(meta, native.item), answer.warnings);
}

/**
 * Serves a Codex compaction. Routed to a Responses upstream, the upstream compacts natively (inline
 * compaction passes through; the compact endpoint becomes an inline one) when its answer holds exactly
 * one compaction item. Otherwise, or when it cannot, the routed model writes a handoff summary through
 * the normal dispatch (routing, fallback, usage) and the gateway returns it as exactly one compaction
 * item. A model that answers with no text cannot compact: a 501 in the Responses error format says so.
 */
export async function serveCompaction(
  calls: CompactionCalls,
  body: unknown,
  kind: CompactionKind,
): Promise<Answer> {
  // Malformed bodies get the Responses decoder's own 400 through the ordinary path.
  if (!isRecord(body) || typeof body.model !== "string") return calls.dispatch(body);
  if (calls.firstUpstreamFormat(body.model) === "responses") {
    const compacted = kind === "inline"
      ? await nativeInlineCompaction(calls, body)
      : await nativeCompaction(calls, body);
    if (compacted !== null) return compacted;
  }
  const summarised = await calls.dispatch(summaryRequestBody(body));
  // The summary's own response (the Responses object the gateway encoded) gives the id, time and usage.
  const answer = summarised.body.kind === "json" ? summarised.body.value : null;
  const summary = outputTextOf(answer);
  if (summary === "") {
    const message =
      `Model "${body.model}" answered the compaction request with no text, so it cannot compact ` +
      "this conversation; route compaction to a model that writes text";
    throw new GatewayError(501, "upstream", message, {
      fixedBody: {
        error: {
          message,
          type: "invalid_request_error",
          param: null,
          code: "responses_compact_not_supported",
        },
      },
    });
  }
  const summaryResponse = isRecord(answer) ? answer : {};
  const id = typeof summaryResponse.id === "string" ? summaryResponse.id : "resp_compaction";
  const meta = {
    id,
    model: body.model,
    createdAt: typeof summaryResponse.created_at === "number" ? summaryResponse.created_at : 0,
    usage: summaryResponse.usage,
  };
  const item = compactionItem(`cmp_${id.replace(/^resp_/, "")}`, summary);
  const warnings = summarised.warnings;
  if (kind === "endpoint") {
    return jsonAnswer(compactedResponse(meta, [...retainedUserMessages(body), item]), warnings);
  }
  if (body.stream === true) return streamAnswer("sse", fixedFrames(compactionStream(meta, item)), warnings);
  return jsonAnswer(compactionResponseObject(meta, item), warnings);
}
