/**
 * The one interface the request lifecycle calls: `start` when a client request arrives, `attempt` per
 * upstream call (its `headers` carry `traceparent` to the provider), `end` once. Every method returns
 * at once: finished spans go to a SpanQueue (the batch exporter) that never blocks. A request that is
 * not sampled costs a few ids and no spans; the upstream still receives a `traceparent` (flag 00) so the
 * provider's trace joins the caller's.
 */
import type { NeutralRequest } from "../model/request.ts";
import type { Part } from "../model/parts.ts";
import type { Finish } from "../model/finish.ts";
import { IdGenerator, type RandomSource } from "./ids.ts";
import type { Sampler } from "./sampler.ts";
import { FLAG_SAMPLED, traceHeaders } from "./trace_context.ts";
import { type Attribute, bool, double, type SpanData, type SpanEvent, SpanKind, str } from "./span.ts";
import { EventName, GatewayAttr, GenAi } from "./semconv.ts";
import {
  type AttemptEnd,
  type AttemptStart,
  genAiSpanName,
  outcomeStatus,
  type RequestEnd,
  type RequestStart,
  writeAttemptEnd,
  writeAttemptStart,
  writeRequestEnd,
  writeRequestStart,
} from "./request_span.ts";
import {
  captureJson,
  type ContentCapture,
  inputMessages,
  outputMessages,
  systemInstructions,
} from "./content_capture.ts";

/** Where finished spans go; `enqueue` must return at once and never throw. */
export interface SpanQueue {
  enqueue(span: SpanData): void;
}

/** The prompt and answer of a request, for content capture. */
export interface CapturedExchange {
  readonly request: NeutralRequest;
  readonly answer: readonly Part[];
  readonly finish: Finish | null;
}

/** One upstream attempt being traced. */
export interface AttemptTrace {
  /** `traceparent` (and `tracestate`) for the upstream call; add them to its headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The attempt's first content arrived (streams): time to first token. */
  firstToken(): void;
  /** The attempt is over (success, failure or abandoned for a fallback). Only the first call counts. */
  end(outcome: AttemptEnd): void;
}

/** One client request being traced. */
export interface RequestTrace {
  readonly traceId: string;
  /** The request span's id (for the log line and the request-log row). */
  readonly spanId: string;
  readonly sampled: boolean;
  /** Starts an attempt span (a child of the request span). */
  attempt(start: AttemptStart): AttemptTrace;
  /** The client received its first content. */
  firstToken(): void;
  /** Records prompt and answer as a GenAI event when content capture is on; ignored otherwise. */
  content(exchange: CapturedExchange): void;
  /** The request is over. Only the first call counts; later calls are ignored. */
  end(outcome: RequestEnd): void;
}

/** What the request lifecycle is given: it calls `start` once per client request. */
export interface RequestSpanSink {
  start(request: RequestStart): RequestTrace;
}

/** What a sink needs; all of it is passed in by the composition root. */
export interface SinkDeps {
  readonly sampler: Sampler;
  readonly random: RandomSource;
  /** Wall-clock time in unix nanoseconds. */
  readonly nowUnixNanos: () => bigint;
  readonly queue: SpanQueue;
  /** Content capture settings, or null when capture is off (the default). */
  readonly capture: ContentCapture | null;
}

const NOOP_ATTEMPT: Omit<AttemptTrace, "headers"> = { firstToken() {}, end() {} };

/**
 * A sink that records nothing (telemetry off). An incoming trace is passed on to the upstream with the
 * caller's span as parent, as a plain proxy would; without one no `traceparent` is invented, since
 * nobody records that trace. The ids still exist so log lines can carry them.
 */
export function noopRequestSpanSink(random: RandomSource): RequestSpanSink {
  const ids = new IdGenerator(random);
  return {
    start(request) {
      const incoming = request.incoming;
      const headers = incoming === null ? {} : traceHeaders(
        incoming.traceId,
        incoming.spanId,
        (incoming.flags & FLAG_SAMPLED) !== 0,
        incoming.traceState,
      );
      return {
        traceId: incoming?.traceId ?? ids.traceId(),
        spanId: ids.spanId(),
        sampled: false,
        attempt: () => ({ headers, ...NOOP_ATTEMPT }),
        firstToken() {},
        content() {},
        end() {},
      };
    },
  };
}

/** The sink that samples, records and queues spans. */
export function createRequestSpanSink(deps: SinkDeps): RequestSpanSink {
  const ids = new IdGenerator(deps.random);
  return { start: (request) => startRequest(deps, ids, request) };
}

function startRequest(deps: SinkDeps, ids: IdGenerator, request: RequestStart): RequestTrace {
  const parent = request.incoming;
  const traceId = parent?.traceId ?? ids.traceId();
  const spanId = ids.spanId();
  const sampled = deps.sampler.shouldSample(parent, traceId);
  const traceState = parent?.traceState ?? "";
  if (!sampled) return unsampledTrace(ids, traceId, spanId, traceState);

  const startedAt = deps.nowUnixNanos();
  const events: SpanEvent[] = [];
  let ended = false;
  let firstTokenSeen = false;
  const open = new Set<() => void>();

  return {
    traceId,
    spanId,
    sampled: true,
    attempt(start) {
      const attempt = startAttempt(deps, ids, request.operation, { traceId, spanId, traceState }, start);
      if (!ended) open.add(attempt.abandon);
      return attempt.trace;
    },
    firstToken() {
      if (ended || firstTokenSeen) return;
      firstTokenSeen = true;
      const at = deps.nowUnixNanos();
      events.push({ name: EventName.firstToken, timeUnixNano: at, attributes: [ttft(at - startedAt)] });
    },
    content(exchange) {
      if (ended || deps.capture === null) return;
      events.push({
        name: EventName.inferenceDetails,
        timeUnixNano: deps.nowUnixNanos(),
        attributes: contentAttributes(request.operation, exchange, deps.capture),
      });
    },
    end(outcome) {
      if (ended) return;
      ended = true;
      // An attempt the lifecycle never ended (a thrown error) still closes, so no child is lost.
      for (const abandon of open) abandon();
      deps.queue.enqueue({
        traceId,
        spanId,
        parentSpanId: parent?.spanId ?? "",
        parentIsRemote: parent?.remote ?? false,
        traceState,
        flags: FLAG_SAMPLED,
        name: genAiSpanName(request.operation, request.requestModel),
        kind: SpanKind.server,
        startTimeUnixNano: startedAt,
        endTimeUnixNano: endTime(startedAt, deps.nowUnixNanos()),
        attributes: (sink) => {
          writeRequestStart(sink, request);
          writeRequestEnd(sink, outcome);
        },
        events,
        droppedEventsCount: 0,
        status: outcomeStatus(outcome),
      });
    },
  };
}

/** An end before the start is clamped: the wall clock can step. */
function endTime(start: bigint, end: bigint): bigint {
  return end < start ? start : end;
}

function ttft(elapsed: bigint): Attribute {
  return { key: GenAi.responseTimeToFirstChunk, value: double(Number(elapsed) / 1e9) };
}

/** The request span an attempt hangs under. */
interface ParentSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceState: string;
}

function startAttempt(
  deps: SinkDeps,
  ids: IdGenerator,
  operation: string,
  parent: ParentSpan,
  start: AttemptStart,
): { trace: AttemptTrace; abandon: () => void } {
  const spanId = ids.spanId();
  const startedAt = deps.nowUnixNanos();
  let ended = false;
  let firstToken: Attribute | null = null;
  const events: SpanEvent[] = [];
  const finish = (outcome: AttemptEnd) => {
    if (ended) return;
    ended = true;
    const elapsed = firstToken;
    deps.queue.enqueue({
      traceId: parent.traceId,
      spanId,
      parentSpanId: parent.spanId,
      parentIsRemote: false,
      traceState: parent.traceState,
      flags: FLAG_SAMPLED,
      name: genAiSpanName(operation, start.model),
      kind: SpanKind.client,
      startTimeUnixNano: startedAt,
      endTimeUnixNano: endTime(startedAt, deps.nowUnixNanos()),
      attributes: (sink) => {
        writeAttemptStart(sink, operation, start);
        if (elapsed !== null) sink.value(elapsed.key, elapsed.value);
        writeAttemptEnd(sink, outcome);
      },
      events,
      droppedEventsCount: 0,
      status: outcomeStatus(outcome),
    });
  };
  return {
    trace: {
      headers: traceHeaders(parent.traceId, spanId, true, parent.traceState),
      firstToken() {
        if (ended || firstToken !== null) return;
        const at = deps.nowUnixNanos();
        firstToken = ttft(at - startedAt);
        events.push({ name: EventName.firstToken, timeUnixNano: at, attributes: [firstToken] });
      },
      end: finish,
    },
    abandon: () => finish({ error: { type: "abandoned", message: "the request ended before this attempt" } }),
  };
}

function unsampledTrace(ids: IdGenerator, traceId: string, spanId: string, traceState: string): RequestTrace {
  return {
    traceId,
    spanId,
    sampled: false,
    attempt: () => ({
      headers: traceHeaders(traceId, ids.spanId(), false, traceState),
      ...NOOP_ATTEMPT,
    }),
    firstToken() {},
    content() {},
    end() {},
  };
}

function contentAttributes(
  operation: string,
  exchange: CapturedExchange,
  capture: ContentCapture,
): Attribute[] {
  const input = captureJson(inputMessages(exchange.request), capture);
  const output = captureJson(outputMessages(exchange.answer, exchange.finish), capture);
  const attributes: Attribute[] = [
    { key: GenAi.operationName, value: str(operation) },
    { key: GenAi.inputMessages, value: str(input.text) },
    { key: GenAi.outputMessages, value: str(output.text) },
  ];
  if (exchange.request.system.length > 0) {
    const system = captureJson(systemInstructions(exchange.request), capture);
    attributes.push({ key: GenAi.systemInstructions, value: str(system.text) });
    if (system.truncated && !input.truncated && !output.truncated) {
      attributes.push({ key: GatewayAttr.contentTruncated, value: bool(true) });
    }
  }
  if (input.truncated || output.truncated) {
    attributes.push({ key: GatewayAttr.contentTruncated, value: bool(true) });
  }
  return attributes;
}
