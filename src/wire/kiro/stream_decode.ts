import type { ErrorKind, Finish, StreamEvent, Usage } from "../../model/mod.ts";
import type { Frame } from "../framing/frame.ts";
import { BlockTracker, type Emit, isRecord, tryParseJson } from "../shared/mod.ts";
import { StreamStage } from "../shared/stream_stage.ts";
import { type Segment, ThinkingSplitter } from "./thinking_tags.ts";

/** How an upstream exception type maps to a status and kind (anything else is the upstream's fault). */
const EXCEPTIONS: Readonly<Record<string, readonly [number, ErrorKind]>> = {
  ThrottlingException: [429, "rate_limit"],
  ServiceQuotaExceededException: [429, "rate_limit"],
  ValidationException: [400, "invalid_request"],
  AccessDeniedException: [403, "permission"],
  UnauthorizedException: [401, "authentication"],
  ResourceNotFoundException: [404, "not_found"],
  InternalServerException: [502, "upstream"],
  ServiceUnavailableException: [503, "unavailable"],
};

/** The stop reason an upstream sent → the unified finish; any tool call seen means the turn asks for tools. */
export function decodeFinish(raw: string | null, sawToolCall: boolean): Finish {
  if (sawToolCall) return { unified: "tool_calls", raw };
  const value = raw?.toLowerCase() ?? "";
  if (value === "tool_use" || value === "tool_calls") return { unified: "tool_calls", raw };
  if (["max_tokens", "length", "token_limit", "max_tokens_exceeded"].includes(value)) {
    return { unified: "length", raw };
  }
  if (value === "content_filter" || value === "safety") return { unified: "content_filter", raw };
  return { unified: "stop", raw };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Metrics → neutral usage. Input tokens here exclude the cache buckets, which the neutral total includes. */
export function decodeMetrics(metrics: Record<string, unknown>): Usage {
  const cacheRead = count(metrics.cacheReadInputTokens);
  const cacheWrite = count(metrics.cacheWriteInputTokens);
  return {
    inputTotal: count(metrics.inputTokens) + cacheRead + cacheWrite,
    cacheRead,
    cacheWrite,
    output: count(metrics.outputTokens),
    reasoning: 0,
  };
}

/** The exception named by a frame (exception frames, or an event payload typed as one), if it is one. */
function exceptionOf(frame: Frame, payload: unknown): { type: string; message: string } | undefined {
  const record = isRecord(payload) ? payload : {};
  const message = typeof record.message === "string"
    ? record.message
    : typeof record.Message === "string"
    ? record.Message
    : frame.data.slice(0, 500);
  const event = frame.event ?? "";
  if (event.startsWith("exception:") || event.startsWith("error:")) {
    return { type: event.slice(event.indexOf(":") + 1), message };
  }
  const typed = typeof record._type === "string" ? record._type : "";
  if (/exception/i.test(typed)) return { type: typed.slice(typed.lastIndexOf("#") + 1), message };
  if (record.type === "error" || record.type === "exception") {
    return { type: typeof record.code === "string" ? record.code : "", message };
  }
  return undefined;
}

/** Some hosts wrap a payload in an object named after its event; both shapes decode alike. */
function unwrap(event: string, payload: unknown): Record<string, unknown> {
  if (!isRecord(payload)) return {};
  const inner = payload[event];
  return isRecord(inner) ? inner : payload;
}

/**
 * Event-stream frames of a `generateAssistantResponse` answer → neutral events: answer text with its
 * `<thinking>` sections as reasoning blocks, reasoning events, tool uses whose input arrives in
 * fragments, metrics as usage, and the finish at the end. An exception frame ends the stream with an
 * error event (before any content, the attempt falls back).
 */
export function decodeStream(): StreamStage<Frame, StreamEvent> {
  let started = false;
  let failed = false;
  let sawToolCall = false;
  let stopReason: string | null = null;
  const blocks = new BlockTracker();
  const splitter = new ThinkingSplitter();

  const start = (emit: Emit) => {
    if (started) return;
    started = true;
    emit({ type: "start", id: "", model: "" });
  };
  const segments = (list: readonly Segment[], emit: Emit) => {
    for (const segment of list) {
      const index = segment.kind === "reasoning"
        ? blocks.open("thinking", "reasoning", emit)
        : blocks.open("text", "text", emit);
      emit({ type: "textDelta", index, text: segment.text });
    }
  };
  const toolUse = (event: Record<string, unknown>, emit: Emit) => {
    const id = typeof event.toolUseId === "string" ? event.toolUseId : "";
    const name = typeof event.name === "string" ? event.name : "";
    if (id === "") return;
    sawToolCall = true;
    // Text held back for a possible tag belongs before the tool call.
    segments(splitter.flush(), emit);
    const index = blocks.open(`tool:${id}`, "toolCall", emit, { id, name });
    const input = event.input;
    if (typeof input === "string" && input !== "") emit({ type: "argumentsDelta", index, json: input });
    else if (isRecord(input)) emit({ type: "argumentsDelta", index, json: JSON.stringify(input) });
    if (event.stop === true) blocks.close(emit);
  };

  const onFrame = (frame: Frame, emit: Emit) => {
    const payload = tryParseJson(frame.data);
    const exception = exceptionOf(frame, payload);
    if (exception) {
      blocks.close(emit);
      failed = true;
      const [status, kind] = EXCEPTIONS[exception.type] ?? [502, "upstream" as const];
      const label = exception.type === "" ? "an exception" : exception.type;
      emit({
        type: "error",
        status,
        kind,
        message: `Cloud assistant stream failed (${label}): ${exception.message}`,
      });
      return;
    }
    const name = frame.event ?? "";
    const event = unwrap(name, payload);
    switch (name) {
      case "assistantResponseEvent":
      case "codeEvent":
        if (typeof event.content === "string" && event.content !== "") {
          start(emit);
          segments(splitter.push(event.content), emit);
        }
        return;
      case "reasoningContentEvent": {
        start(emit);
        const index = blocks.open("thinking", "reasoning", emit);
        if (typeof event.text === "string" && event.text !== "") {
          emit({ type: "textDelta", index, text: event.text });
        }
        if (typeof event.signature === "string") {
          emit({ type: "signatureDelta", index, signature: event.signature });
        }
        return;
      }
      case "toolUseEvent":
        start(emit);
        for (const use of Array.isArray(payload) ? payload : [event]) if (isRecord(use)) toolUse(use, emit);
        return;
      case "messageStopEvent":
      case "metadataEvent":
        if (typeof event.stopReason === "string") stopReason = event.stopReason;
        if (isRecord(event.tokenUsage)) emit({ type: "usage", usage: decodeMetrics(event.tokenUsage) });
        return;
      case "metricsEvent":
        emit({ type: "usage", usage: decodeMetrics(event) });
        return;
      default:
        // contextUsageEvent, meteringEvent, followupPromptEvent and any newer event carry no answer content.
        return;
    }
  };

  return new StreamStage<Frame, StreamEvent>({
    transform(frame, out) {
      if (!failed) onFrame(frame, (event) => out.enqueue(event));
    },
    flush(out) {
      if (failed || !started) return;
      const emit: Emit = (event) => out.enqueue(event);
      segments(splitter.flush(), emit);
      blocks.close(emit);
      emit({ type: "finish", finish: decodeFinish(stopReason, sawToolCall) });
    },
  });
}
