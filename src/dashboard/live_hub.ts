import type { DashboardIdentity } from "./identity.ts";
import type { UsageRow } from "../storage/mod.ts";
import type { LiveEvent } from "./contract/usage.ts";

/** One event of the live usage stream (see docs/dashboard-api.md); its shape is part of the UI contract. */
export type RequestEvent = LiveEvent;

/**
 * What the hub reads of a request the gateway is handling. The root registers the hub as a dispatch observer;
 * the hub names only the fields it shows, so it does not depend on the dispatcher's trace type.
 */
export interface LiveTrace {
  readonly id: number;
  readonly input: { readonly identity: DashboardIdentity; readonly surface: string };
  readonly startedAt: number;
  readonly model: string;
  readonly providerId: string;
  readonly status: number;
  readonly streamed: boolean;
  readonly error: string;
  readonly latencyMs: number;
}

/** How often subscribers get a batch at most: 5 batches plus 5 in-flight updates per second. */
export const LIVE_FLUSH_MS = 200;
/** Comment pings keep proxies from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** Recent events kept for the snapshot. */
export const RECENT_EVENTS = 100;
/** Events one batch carries at most; older ones are dropped for a slow subscriber. */
export const MAX_BATCH = 500;

/** The other processes on the database, as the hub sees them (see `connect`). */
export interface LivePeers {
  publish(event: RequestEvent): void;
  listen(on: boolean): void;
}

interface Subscriber {
  readonly send: (text: string) => void;
  readonly end: () => void;
  /** Whether the stream takes more now (false while its client does not read what it was sent). */
  readonly ready: () => boolean;
  pending: RequestEvent[];
  dropped: number;
  lastInflight: number;
}

/**
 * Fans request events out to live dashboard streams. Events are only buffered on the request path;
 * a timer (running only while someone listens) sends them in batches, so the cost per request stays
 * constant whatever the request rate and however many dashboards are open.
 */
export class LiveHub {
  #seq = 0;
  #inflight = 0;
  /** Requests in flight in other processes on the same database (from their relayed start/finish events). */
  #remoteInflight = 0;
  #peers: LivePeers | null = null;
  #recent: RequestEvent[] = [];
  #subscribers = new Set<Subscriber>();
  #flushTimer: ReturnType<typeof setInterval> | undefined;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  readonly #now: () => number;
  readonly #label: (identity: DashboardIdentity) => string;

  /** `label` names a request's user, by the gateway's rules. */
  constructor(now: () => number, label: (identity: DashboardIdentity) => string) {
    this.#now = now;
    this.#label = label;
  }

  /** Requests currently being handled, by this process and the others sharing its database. */
  get inflight(): number {
    return this.#inflight + this.#remoteInflight;
  }

  /**
   * Connects the hub to the other processes sharing the database: this hub's events go to `publish`, and
   * `listen` hears whether anyone watches here (the others publish only while someone does).
   */
  connect(peers: LivePeers): void {
    this.#peers = peers;
    peers.listen(this.#subscribers.size > 0);
  }

  /** Events another process produced: shown like local ones, numbered in this hub's sequence. */
  relay(events: readonly RequestEvent[]): void {
    for (const event of events) {
      if (event.phase === "start") this.#remoteInflight++;
      else if (event.phase === "finish") this.#remoteInflight = Math.max(0, this.#remoteInflight - 1);
      this.#push({ ...event, seq: ++this.#seq });
    }
  }

  /** The most recent events, oldest first. */
  recent(): RequestEvent[] {
    return this.#recent.slice(-RECENT_EVENTS);
  }

  /** Observer hook: a client request started. */
  started(trace: LiveTrace): void {
    this.#inflight++;
    this.#local(this.#traceEvent(trace, "start"));
  }

  /** Observer hook: a client request finished (its response is complete). */
  finished(trace: LiveTrace): void {
    this.#inflight = Math.max(0, this.#inflight - 1);
    this.#local(this.#traceEvent(trace, "finish"));
  }

  /** Usage-recorder hook: one upstream attempt was recorded. */
  recorded(row: UsageRow): void {
    this.#local({
      seq: ++this.#seq,
      phase: "usage",
      request_id: null,
      ts: row.ts,
      model: row.model,
      provider_id: row.providerId,
      user: row.clientKeyLabel,
      client_format: row.clientFormat,
      status: row.status,
      latency_ms: row.latencyMs,
      streamed: row.streamed,
      input_tokens: row.inputTokens,
      output_tokens: row.outputTokens,
      cost: row.cost,
      error: row.error.slice(0, 300),
    });
  }

  /**
   * Adds a stream; it gets the snapshot at once and batches after. `end` is called when the hub closes
   * (shutdown), so open streams do not hold the server open. While `ready` says no (a client that does not
   * read what it was sent), the stream is sent nothing: its events wait, at most 2 × MAX_BATCH of them, and
   * the batch it gets once it reads again counts the ones dropped. Returns the unsubscribe function.
   */
  subscribe(
    send: (text: string) => void,
    end: () => void = () => {},
    ready: () => boolean = () => true,
  ): () => void {
    const subscriber: Subscriber = { send, end, ready, pending: [], dropped: 0, lastInflight: this.inflight };
    send(message("snapshot", { inflight: this.inflight, recent: this.recent() }));
    this.#subscribers.add(subscriber);
    if (this.#flushTimer === undefined) {
      this.#peers?.listen(true);
      this.#flushTimer = setInterval(() => this.#flush(), LIVE_FLUSH_MS);
      this.#pingTimer = setInterval(() => this.#broadcast(": ping\n\n"), LIVE_HEARTBEAT_MS);
    }
    return () => {
      this.#subscribers.delete(subscriber);
      if (this.#subscribers.size === 0) this.#stopTimers();
    };
  }

  /** Number of open streams. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /** Ends every stream and the timers (shutdown). */
  close(): void {
    for (const subscriber of this.#subscribers) {
      try {
        subscriber.end();
      } catch { /* already gone */ }
    }
    this.#subscribers.clear();
    this.#stopTimers();
  }

  #stopTimers(): void {
    if (this.#flushTimer !== undefined) this.#peers?.listen(false);
    clearInterval(this.#flushTimer);
    clearInterval(this.#pingTimer);
    this.#flushTimer = undefined;
    this.#pingTimer = undefined;
  }

  #traceEvent(trace: LiveTrace, phase: "start" | "finish"): RequestEvent {
    const finished = phase === "finish";
    return {
      seq: ++this.#seq,
      phase,
      request_id: trace.id,
      ts: finished ? this.#now() : trace.startedAt,
      model: trace.model,
      provider_id: trace.providerId,
      user: this.#label(trace.input.identity),
      client_format: trace.input.surface,
      status: finished ? trace.status : 0,
      latency_ms: finished ? Math.max(0, Math.round(trace.latencyMs)) : 0,
      streamed: trace.streamed,
      input_tokens: 0,
      output_tokens: 0,
      cost: 0,
      error: finished ? trace.error.slice(0, 300) : "",
    };
  }

  #local(event: RequestEvent): void {
    this.#push(event);
    this.#peers?.publish(event);
  }

  #push(event: RequestEvent): void {
    this.#recent.push(event);
    // Trimmed in bulk: cutting one event off the front per push moves the whole list every time.
    if (this.#recent.length >= RECENT_EVENTS * 2) this.#recent.splice(0, RECENT_EVENTS);
    for (const subscriber of this.#subscribers) {
      subscriber.pending.push(event);
      if (subscriber.pending.length > MAX_BATCH * 2) {
        const excess = subscriber.pending.length - MAX_BATCH;
        subscriber.pending.splice(0, excess);
        subscriber.dropped += excess;
      }
    }
  }

  #flush(): void {
    for (const subscriber of this.#subscribers) {
      try {
        if (!subscriber.ready()) continue;
        if (subscriber.pending.length > 0) {
          let events = subscriber.pending;
          if (events.length > MAX_BATCH) {
            subscriber.dropped += events.length - MAX_BATCH;
            events = events.slice(-MAX_BATCH);
          }
          subscriber.pending = [];
          subscriber.send(message("request", { events, dropped: subscriber.dropped }));
          subscriber.dropped = 0;
        }
        if (subscriber.lastInflight !== this.inflight) {
          subscriber.lastInflight = this.inflight;
          subscriber.send(message("inflight", { count: this.inflight }));
        }
      } catch {
        this.#subscribers.delete(subscriber);
      }
    }
    if (this.#subscribers.size === 0) this.#stopTimers();
  }

  #broadcast(text: string): void {
    for (const subscriber of this.#subscribers) {
      try {
        if (subscriber.ready()) subscriber.send(text);
      } catch {
        this.#subscribers.delete(subscriber);
      }
    }
  }
}

function message(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
