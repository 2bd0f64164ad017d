import { GatewayError } from "../model/mod.ts";
import {
  compactedResponse,
  compactionItem,
  compactionOfStream,
  compactionResponseObject,
  compactionStream,
  nativeCompactionBody,
  outputTextOf,
  retainedUserMessages,
  summaryRequestBody,
} from "../wire/responses/compaction.ts";
import { isRecord } from "../wire/shared/mod.ts";
import type { Dispatcher } from "./dispatch.ts";
import type { DispatchInput } from "./request_lifecycle.ts";
import { WARNINGS_HEADER } from "./warnings.ts";

/** Which of Codex's two compaction requests is being served. */
export type CompactionKind =
  /** `POST /v1/responses/compact`: a JSON object with the retained user messages and one compaction item. */
  | "endpoint"
  /** `POST /v1/responses` with a `compaction_trigger` item: a response (stream or JSON) with one compaction item. */
  | "inline";

/** A Responses upstream's buffered streaming answer that holds exactly one compaction item. */
interface NativeAnswer {
  readonly answer: Response;
  readonly text: string;
  readonly native: NonNullable<ReturnType<typeof compactionOfStream>>;
}

/**
 * Dispatches `streamingBody` (a request that asks the upstream to compact) and buffers the answer. Null when
 * the call failed or the answer did not hold exactly one compaction item (an upstream that answered the
 * trigger with plain text): Codex fails on anything but exactly one, so the routed model then writes the
 * summary instead.
 */
async function askNative(
  dispatcher: Dispatcher,
  input: DispatchInput,
  streamingBody: Record<string, unknown>,
): Promise<NativeAnswer | null> {
  let answer: Response;
  try {
    answer = await dispatcher.handle({ ...input, body: streamingBody });
  } catch {
    return null;
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    return null;
  }
  const text = await answer.text();
  const native = compactionOfStream(text);
  return native === null ? null : { answer, text, native };
}

/**
 * `/v1/responses/compact` for a Responses upstream: the upstream compacts natively (the same input with a
 * `compaction_trigger` item, through the normal dispatch). Null when it did not answer with exactly one
 * compaction item, so the routed model writes the summary instead.
 */
async function nativeCompaction(
  dispatcher: Dispatcher,
  input: DispatchInput,
  body: Record<string, unknown>,
): Promise<Response | null> {
  const asked = await askNative(dispatcher, input, nativeCompactionBody(body));
  if (asked === null) return null;
  const meta = { ...asked.native.answer, model: String(body.model) };
  return Response.json(compactedResponse(meta, [...retainedUserMessages(body), asked.native.item]));
}

/**
 * An inline compaction (`compaction_trigger`) for a Responses upstream: the request passes through as
 * the client sent it, but always as a stream (a compaction item has no neutral part, so only the
 * same-format stream carries it through the gateway). With exactly one compaction item, a streaming
 * client gets the upstream's events verbatim and a JSON client the completed response with that item.
 * Null otherwise, so the routed model writes the summary instead.
 */
async function nativeInlineCompaction(
  dispatcher: Dispatcher,
  input: DispatchInput,
  body: Record<string, unknown>,
): Promise<Response | null> {
  const asked = await askNative(dispatcher, input, { ...body, stream: true });
  if (asked === null) return null;
  const { answer, text, native } = asked;
  if (body.stream === true) return new Response(text, { status: answer.status, headers: answer.headers });
  const meta = { ...native.answer, model: String(body.model) };
  return Response.json(compactionResponseObject(meta, native.item), { headers: warningHeaders(answer) });
}

/** The translation warnings of the answer a compaction was made from, for the compaction's own answer. */
function warningHeaders(answer: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  const warnings = answer.headers.get(WARNINGS_HEADER);
  if (warnings !== null) headers[WARNINGS_HEADER] = warnings;
  return headers;
}

/**
 * Serves a Codex compaction. Routed to a Responses upstream, the upstream compacts natively (inline
 * compaction passes through; the compact endpoint becomes an inline one) when its answer holds exactly
 * one compaction item. Otherwise, or when it cannot,
 * the routed model writes a handoff summary through the normal dispatch (routing, fallback, usage, logs)
 * and the gateway returns it as exactly one compaction item.
 * A model that answers with no text cannot compact: a 501 in the Responses error format says so.
 */
export async function serveCompaction(
  dispatcher: Dispatcher,
  input: DispatchInput,
  kind: CompactionKind,
): Promise<Response> {
  const body = input.body;
  // Malformed bodies get the Responses decoder's own 400 through the ordinary path.
  if (!isRecord(body) || typeof body.model !== "string") return dispatcher.handle(input);
  const native = dispatcher.firstUpstreamFormat(body.model) === "responses";
  if (native) {
    const compacted = kind === "inline"
      ? await nativeInlineCompaction(dispatcher, input, body)
      : await nativeCompaction(dispatcher, input, body);
    if (compacted !== null) return compacted;
  }
  const summarised = await dispatcher.handle({ ...input, body: summaryRequestBody(body) });
  if (!summarised.ok) return summarised;
  const answer: unknown = await summarised.json();
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
  // The summary's own response (a Responses object the gateway encoded) gives the id, time and usage.
  const summaryResponse = isRecord(answer) ? answer : {};
  const id = typeof summaryResponse.id === "string" ? summaryResponse.id : "resp_compaction";
  const meta = {
    id,
    model: body.model,
    createdAt: typeof summaryResponse.created_at === "number" ? summaryResponse.created_at : 0,
    usage: summaryResponse.usage,
  };
  const item = compactionItem(`cmp_${id.replace(/^resp_/, "")}`, summary);
  const headers = warningHeaders(summarised);
  if (kind === "endpoint") {
    return Response.json(compactedResponse(meta, [...retainedUserMessages(body), item]), { headers });
  }
  if (body.stream === true) {
    return new Response(compactionStream(meta, item), {
      headers: {
        ...headers,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
      },
    });
  }
  return Response.json(compactionResponseObject(meta, item), { headers });
}
