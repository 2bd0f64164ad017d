/**
 * The batch span exporter: the request path calls `enqueue` (never waits, never throws), which encodes
 * the span into the open batch at once (holding spans as objects until their batch leaves made them
 * outlive the young generation, the largest cost of tracing); a background loop sends sealed batches to
 * the OTLP/HTTP endpoint one request at a time. Memory is bounded: at most `maxQueueSize` encoded spans
 * wait, plus one batch (≤ `maxBatchSize` spans) in flight; a span that arrives at a full queue is
 * dropped and counted (the newest is dropped because the queued ones are already paid for). An endpoint
 * that is down, slow or failing costs only these drops. The HTTP POST, timers and the clock are passed in.
 */
import type { SpanData } from "./span.ts";
import type { SpanQueue } from "./request_span_sink.ts";
import { RETRYABLE_STATUSES, retryAfterMs, retryDelayMs, type RetryPolicy } from "./export_retry.ts";

/** Why spans were dropped (the label on the drop counter). */
export type DropReason = "queue_full" | "export_failed" | "rejected" | "shutdown";

/** Counter hooks for `/metrics`; every call is cheap and synchronous. */
export interface ExportCounters {
  exported(spans: number): void;
  dropped(reason: DropReason, spans: number): void;
  /** One HTTP export request failed (an error answer, a timeout or a connection error). */
  failed(): void;
}

/** Encodes spans into export request bodies, a span at a time (ProtobufTraceEncoder, JsonTraceEncoder). */
export interface BatchEncoder {
  readonly contentType: string;
  /** Appends a span to the open batch; on a throw the open batch is as it was. */
  add(span: SpanData): void;
  /** The body holding the spans added since the last seal; the next batch starts empty. */
  seal(): Uint8Array;
  /**
   * A sealed body is done with (its export was answered): the encoder may write a later batch into its
   * memory. Only bodies from this encoder's `seal`, and nothing may read the body afterwards.
   */
  release(body: Uint8Array): void;
}

/** A batch ready to send. */
interface SealedBatch {
  readonly body: Uint8Array;
  readonly spans: number;
}

/** An answered export request: its status, a header by lower-case name, and the start of its body. */
export interface ExportAnswer {
  readonly status: number;
  header(name: string): string | null;
  /** At most the first EXPORT_ANSWER_MAX_BYTES of the body (a partial-success body is a few bytes). */
  readonly body: Uint8Array;
}

/** Sends one export request (POST); rejects on a connection error, or once `signal` aborts. */
export type ExportPost = (
  url: string,
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
) => Promise<ExportAnswer>;

/** The most of an export's answer a post needs to read; the rest may be dropped with the connection. */
export const EXPORT_ANSWER_MAX_BYTES = 64 * 1024;

/** A timer handle as the runtime's `setTimeout` returns it. */
export type TimerHandle = ReturnType<typeof setTimeout>;

/** Timers as the exporter uses them (the global ones in production, fakes in tests). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(id: TimerHandle): void;
}

/** What the exporter needs; all passed in by the composition root. */
export interface BatchExporterDeps {
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly encoder: BatchEncoder;
  readonly post: ExportPost;
  readonly timers: Timers;
  /** Wall clock in epoch ms, for `Retry-After` dates. */
  readonly nowEpochMs: () => number;
  readonly maxQueueSize: number;
  readonly maxBatchSize: number;
  /** How long a span may wait for its batch to fill before a partial batch is sent. */
  readonly scheduleDelayMs: number;
  /** Each HTTP request is aborted after this. */
  readonly exportTimeoutMs: number;
  readonly retry: RetryPolicy;
  readonly counters?: ExportCounters;
  /** Told when exporting starts failing and when it recovers (not on every failure). */
  readonly onStateChange?: (healthy: boolean, detail: string) => void;
}

/** Counts since start, for tests and `/metrics`. */
export interface ExporterStats {
  readonly queued: number;
  readonly exported: number;
  readonly dropped: Readonly<Record<DropReason, number>>;
  readonly failedRequests: number;
}

/** Batches spans and sends them off the request path. */
export class BatchSpanExporter implements SpanQueue {
  readonly #deps: BatchExporterDeps;
  /** Sealed batches, oldest first. */
  readonly #sealed: SealedBatch[] = [];
  /** Spans in the encoder's open batch. */
  #open = 0;
  /** Spans waiting: the sealed batches' and the open batch's. */
  #size = 0;
  #timer: TimerHandle | null = null;
  /** The armed timer fires at once (a full batch is waiting). */
  #timerImmediate = false;
  #busy = false;
  #closed = false;
  #healthy = true;
  /** Aborts the in-flight request and any retry wait at shutdown's deadline. */
  #abort = new AbortController();
  #idle: Promise<void> = Promise.resolve();
  #exported = 0;
  #failedRequests = 0;
  readonly #dropped: Record<DropReason, number> = {
    queue_full: 0,
    export_failed: 0,
    rejected: 0,
    shutdown: 0,
  };

  constructor(deps: BatchExporterDeps) {
    if (deps.maxQueueSize < 1 || deps.maxBatchSize < 1) throw new Error("queue and batch sizes must be ≥ 1");
    this.#deps = deps;
  }

  /** Queues a finished span; drops it (counted) when the queue is full or the exporter is shut down. */
  enqueue(span: SpanData): void {
    if (this.#closed) return this.#drop("shutdown", 1);
    if (this.#size >= this.#deps.maxQueueSize) return this.#drop("queue_full", 1);
    try {
      this.#deps.encoder.add(span);
    } catch (error) {
      // An encoder bug must not reach the request; the span is lost and counted.
      this.#drop("export_failed", 1);
      this.#state(false, `encoding failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.#open++;
    this.#size++;
    if (this.#open >= this.#deps.maxBatchSize) this.#sealOpen();
    this.#schedule();
  }

  #sealOpen(): void {
    if (this.#open === 0) return;
    this.#sealed.push({ body: this.#deps.encoder.seal(), spans: this.#open });
    this.#open = 0;
  }

  /** Counts since start. */
  stats(): ExporterStats {
    return {
      queued: this.#size,
      exported: this.#exported,
      dropped: { ...this.#dropped },
      failedRequests: this.#failedRequests,
    };
  }

  /** Sends everything queued now (tests, and before a planned stop); resolves when the queue is empty or stuck. */
  async forceFlush(): Promise<void> {
    await this.#drain();
    this.#schedule();
  }

  /** Sends batches until the queue is empty or shutdown's deadline passed. */
  async #drain(): Promise<void> {
    while (this.#size > 0 && !this.#abort.signal.aborted) {
      // The timer's run (if one started) finishes first, so only one request is ever in flight.
      this.#cancelTimer();
      await this.#idle;
      // The deadline may have passed while the run in flight ended: nothing more is sent then.
      if (this.#abort.signal.aborted) break;
      await this.#run();
    }
    await this.#idle;
  }

  /**
   * Stops accepting spans and sends what is queued, giving up at `deadlineMs`: the request in flight is
   * aborted and what is left is counted as dropped. Resolves by the deadline (plus a tick).
   */
  async shutdown(deadlineMs: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#cancelTimer();
    const deadline = this.#deps.timers.setTimeout(() => this.#abort.abort(), deadlineMs);
    try {
      await this.#drain();
    } finally {
      this.#deps.timers.clearTimeout(deadline);
      this.#abort.abort();
      if (this.#size > 0) {
        this.#drop("shutdown", this.#size);
        this.#sealOpen();
        this.#sealed.length = 0;
        this.#size = 0;
      }
    }
  }

  #drop(reason: DropReason, spans: number): void {
    this.#dropped[reason] += spans;
    this.#deps.counters?.dropped(reason, spans);
  }

  #cancelTimer(): void {
    if (this.#timer !== null) this.#deps.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerImmediate = false;
  }

  /** Arms the timer: at once for a full batch, after the delay for a partial one. */
  #schedule(): void {
    if (this.#busy || this.#closed || this.#size === 0) return;
    const full = this.#sealed.length > 0;
    if (this.#timer !== null && (!full || this.#timerImmediate)) return;
    this.#cancelTimer();
    this.#timerImmediate = full;
    this.#timer = this.#deps.timers.setTimeout(() => {
      this.#timer = null;
      this.#timerImmediate = false;
      this.#idle = this.#run().then(() => this.#schedule());
    }, full ? 0 : this.#deps.scheduleDelayMs);
  }

  /** Takes the oldest batch (sealing a partial one when none is full) and sends it, with retries. */
  async #run(): Promise<void> {
    if (this.#busy || this.#size === 0) return;
    this.#busy = true;
    if (this.#sealed.length === 0) this.#sealOpen();
    const batch = this.#sealed.shift()!;
    this.#size -= batch.spans;
    try {
      await this.#send(batch);
    } finally {
      this.#busy = false;
    }
  }

  async #send(batch: SealedBatch): Promise<void> {
    const contentType = this.#deps.encoder.contentType;
    for (let attempt = 0;; attempt++) {
      const result = await this.#post(batch.body, contentType);
      if (result.ok) {
        // The answer has been read, so the request and its body are finished with: a new buffer per
        // batch (hundreds of KB, 30+ a second at 10 k requests/s) cost about 6 µs a request in page
        // faults and collections. A batch that failed is left to the collector: a request that was cut
        // off may still hold its body.
        this.#deps.encoder.release(batch.body);
        const accepted = batch.spans - result.rejected;
        this.#exported += accepted;
        this.#deps.counters?.exported(accepted);
        if (result.rejected > 0) this.#drop("rejected", result.rejected);
        this.#state(true, "");
        return;
      }
      this.#failedRequests++;
      this.#deps.counters?.failed();
      this.#state(false, result.detail);
      const delay = result.retryable
        ? retryDelayMs(this.#deps.retry, attempt + 1, result.retryAfterMs)
        : null;
      if (delay === null || this.#abort.signal.aborted || !(await this.#sleep(delay))) {
        this.#drop("export_failed", batch.spans);
        return;
      }
    }
  }

  async #post(body: Uint8Array, contentType: string): Promise<PostResult> {
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    // An abort listener added after the abort never runs: a request started past the deadline ends at once.
    if (this.#abort.signal.aborted) controller.abort();
    this.#abort.signal.addEventListener("abort", onShutdown);
    const timeout = this.#deps.timers.setTimeout(() => controller.abort(), this.#deps.exportTimeoutMs);
    try {
      const answer = await this.#deps.post(
        this.#deps.endpoint,
        { ...this.#deps.headers, "content-type": contentType },
        body as Uint8Array<ArrayBuffer>,
        controller.signal,
      );
      if (answer.status >= 200 && answer.status < 300) {
        return { ok: true, rejected: rejectedSpans(answer.body, contentType) };
      }
      return {
        ok: false,
        retryable: RETRYABLE_STATUSES.has(answer.status),
        retryAfterMs: retryAfterMs(answer.header("retry-after"), this.#deps.nowEpochMs()),
        detail: `HTTP ${answer.status}`,
      };
    } catch (error) {
      const detail = controller.signal.aborted
        ? `no answer within ${this.#deps.exportTimeoutMs} ms`
        : error instanceof Error
        ? error.message
        : String(error);
      // A connection that ended (or never answered) is retried, as the specification asks.
      return { ok: false, retryable: true, retryAfterMs: null, detail };
    } finally {
      this.#deps.timers.clearTimeout(timeout);
      this.#abort.signal.removeEventListener("abort", onShutdown);
    }
  }

  /** Waits `ms`; false when shutdown's deadline cut the wait short. */
  #sleep(ms: number): Promise<boolean> {
    const signal = this.#abort.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#deps.timers.clearTimeout(id);
        resolve(false);
      };
      const id = this.#deps.timers.setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  #state(healthy: boolean, detail: string): void {
    if (healthy === this.#healthy) return;
    this.#healthy = healthy;
    this.#deps.onStateChange?.(healthy, detail);
  }
}

type PostResult =
  | { readonly ok: true; readonly rejected: number }
  | {
    readonly ok: false;
    readonly retryable: boolean;
    readonly retryAfterMs: number | null;
    readonly detail: string;
  };

/**
 * `partial_success.rejected_spans` of an ExportTraceServiceResponse (0 when absent or unreadable).
 * Protobuf: field 1 (message) → field 1 (int64 varint); JSON: `partialSuccess.rejectedSpans`.
 */
export function rejectedSpans(body: Uint8Array, contentType: string): number {
  if (body.length === 0) return 0;
  if (contentType.includes("json")) {
    try {
      const value = JSON.parse(new TextDecoder().decode(body))?.partialSuccess?.rejectedSpans;
      const n = Number(value ?? 0);
      return Number.isFinite(n) && n > 0 ? n : 0;
    } catch {
      return 0;
    }
  }
  const top = findField(body, 1);
  if (top === null || top.wire !== 2) return 0;
  const inner = findField(top.bytes, 1);
  return inner !== null && inner.wire === 0 ? inner.value : 0;
}

type Field = { wire: 0; value: number; bytes: Uint8Array } | { wire: 2; value: number; bytes: Uint8Array };

function findField(buf: Uint8Array, wanted: number): Field | null {
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10 && pos < buf.length; i++) {
      const b = buf[pos++];
      result += (b & 0x7f) * shift;
      shift *= 128;
      if (b < 0x80) return result;
    }
    throw new Error("bad varint");
  };
  try {
    while (pos < buf.length) {
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag & 7;
      if (wire === 0) {
        const value = varint();
        if (field === wanted) return { wire: 0, value, bytes: new Uint8Array() };
      } else if (wire === 2) {
        const length = varint();
        const bytes = buf.subarray(pos, pos + length);
        pos += length;
        if (field === wanted) return { wire: 2, value: length, bytes };
      } else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else return null;
    }
  } catch {
    return null;
  }
  return null;
}
