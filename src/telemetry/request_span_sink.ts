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
  if (!sampled) return unsampledTrace(ids, traceId, spanId, parent?.traceState ?? "");
  return new RecordedRequest(deps, ids, request, traceId, spanId);
}

/**
 * A sampled request being recorded. A class rather than closures over locals: every sampled request
 * makes one, and one object with fixed fields (event lists made only when an event comes) is what the
 * young generation sees instead of five closures, their context, a Set and two empty arrays.
 */
class RecordedRequest implements RequestTrace {
  readonly sampled = true;
  readonly #deps: SinkDeps;
  readonly #ids: IdGenerator;
  readonly #request: RequestStart;
  readonly #startedAt: bigint;
  #events: SpanEvent[] | null = null;
  #ended = false;
  #firstTokenSeen = false;
  /** Attempts started and not yet ended, closed as abandoned if the request ends first. */
  #open: RecordedAttempt[] | null = null;

  constructor(
    deps: SinkDeps,
    ids: IdGenerator,
    request: RequestStart,
    readonly traceId: string,
    readonly spanId: string,
  ) {
    this.#deps = deps;
    this.#ids = ids;
    this.#request = request;
    this.#startedAt = deps.nowUnixNanos();
  }

  attempt(start: AttemptStart): AttemptTrace {
    const attempt = new RecordedAttempt(this.#deps, this.#ids.spanId(), this.#request.operation, this, start);
    if (!this.#ended) (this.#open ??= []).push(attempt);
    return attempt;
  }

  /** An attempt ended on its own: the request's end need not close it. */
  attemptEnded(attempt: RecordedAttempt): void {
    const open = this.#open;
    if (open === null) return;
    const at = open.indexOf(attempt);
    if (at >= 0) open.splice(at, 1);
  }

  get traceState(): string {
    return this.#request.incoming?.traceState ?? "";
  }

  firstToken(): void {
    if (this.#ended || this.#firstTokenSeen) return;
    this.#firstTokenSeen = true;
    const at = this.#deps.nowUnixNanos();
    (this.#events ??= []).push({
      name: EventName.firstToken,
      timeUnixNano: at,
      attributes: [ttft(at - this.#startedAt)],
    });
  }

  content(exchange: CapturedExchange): void {
    const capture = this.#deps.capture;
    if (this.#ended || capture === null) return;
    (this.#events ??= []).push({
      name: EventName.inferenceDetails,
      timeUnixNano: this.#deps.nowUnixNanos(),
      attributes: contentAttributes(this.#request.operation, exchange, capture),
    });
  }

  end(outcome: RequestEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    // An attempt the lifecycle never ended (a thrown error) still closes, so no child is lost.
    const open = this.#open;
    this.#open = null;
    if (open !== null) { for (const attempt of open) attempt.abandon(); }
    const request = this.#request;
    const parent = request.incoming;
    this.#deps.queue.enqueue({
      traceId: this.traceId,
      spanId: this.spanId,
      parentSpanId: parent?.spanId ?? "",
      parentIsRemote: parent?.remote ?? false,
      traceState: parent?.traceState ?? "",
      flags: FLAG_SAMPLED,
      name: genAiSpanName(request.operation, request.requestModel),
      kind: SpanKind.server,
      startTimeUnixNano: this.#startedAt,
      endTimeUnixNano: endTime(this.#startedAt, this.#deps.nowUnixNanos()),
      attributes: (sink) => {
        writeRequestStart(sink, request);
        writeRequestEnd(sink, outcome);
      },
      events: this.#events ?? NO_EVENTS,
      droppedEventsCount: 0,
      status: outcomeStatus(outcome),
    });
  }
}

const NO_EVENTS: readonly SpanEvent[] = [];

/** An end before the start is clamped: the wall clock can step. */
function endTime(start: bigint, end: bigint): bigint {
  return end < start ? start : end;
}

function ttft(elapsed: bigint): Attribute {
  return { key: GenAi.responseTimeToFirstChunk, value: double(Number(elapsed) / 1e9) };
}

/** One sampled upstream attempt being recorded (a child of its request's span). */
class RecordedAttempt implements AttemptTrace {
  readonly headers: Readonly<Record<string, string>>;
  readonly #deps: SinkDeps;
  readonly #spanId: string;
  readonly #operation: string;
  readonly #parent: RecordedRequest;
  readonly #start: AttemptStart;
  readonly #startedAt: bigint;
  #ended = false;
  #firstToken: SpanEvent | null = null;

  constructor(
    deps: SinkDeps,
    spanId: string,
    operation: string,
    parent: RecordedRequest,
    start: AttemptStart,
  ) {
    this.#deps = deps;
    this.#spanId = spanId;
    this.#operation = operation;
    this.#parent = parent;
    this.#start = start;
    this.#startedAt = deps.nowUnixNanos();
    this.headers = traceHeaders(parent.traceId, spanId, true, parent.traceState);
  }

  firstToken(): void {
    if (this.#ended || this.#firstToken !== null) return;
    const at = this.#deps.nowUnixNanos();
    this.#firstToken = {
      name: EventName.firstToken,
      timeUnixNano: at,
      attributes: [ttft(at - this.#startedAt)],
    };
  }

  end(outcome: AttemptEnd): void {
    if (this.#ended) return;
    this.#parent.attemptEnded(this);
    this.#finish(outcome);
  }

  /** The request ended first: the attempt closes as abandoned. */
  abandon(): void {
    if (!this.#ended) this.#finish(ABANDONED);
  }

  #finish(outcome: AttemptEnd): void {
    this.#ended = true;
    const parent = this.#parent;
    const operation = this.#operation;
    const start = this.#start;
    const firstToken = this.#firstToken;
    this.#deps.queue.enqueue({
      traceId: parent.traceId,
      spanId: this.#spanId,
      parentSpanId: parent.spanId,
      parentIsRemote: false,
      traceState: parent.traceState,
      flags: FLAG_SAMPLED,
      name: genAiSpanName(operation, start.model),
      kind: SpanKind.client,
      startTimeUnixNano: this.#startedAt,
      endTimeUnixNano: endTime(this.#startedAt, this.#deps.nowUnixNanos()),
      attributes: (sink) => {
        writeAttemptStart(sink, operation, start);
        if (firstToken !== null) {
          const elapsed = firstToken.attributes[0];
          sink.value(elapsed.key, elapsed.value);
        }
        writeAttemptEnd(sink, outcome);
      },
      events: firstToken === null ? NO_EVENTS : [firstToken],
      droppedEventsCount: 0,
      status: outcomeStatus(outcome),
    });
  }
}

const ABANDONED: AttemptEnd = {
  error: { type: "abandoned", message: "the request ended before this attempt" },
};

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
