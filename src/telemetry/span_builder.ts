/**
 * One span while it is open: attributes (a later value for a key replaces the earlier one), events and
 * a status, frozen into SpanData by `end`. Caps bound what one span can hold, so a request with
 * thousands of attempts or warnings cannot grow one span without limit; what is cut is counted.
 */
import type { Attribute, AttributeValue, SpanData, SpanEvent, SpanKindValue, SpanStatus } from "./span.ts";

/** Most attributes one span keeps (the OpenTelemetry SDK default). */
export const MAX_ATTRIBUTES = 128;
/** Most events one span keeps (the OpenTelemetry SDK default). */
export const MAX_EVENTS = 128;

/** Identity and start of a span. */
export interface SpanStart {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly parentIsRemote: boolean;
  readonly traceState: string;
  readonly flags: number;
  readonly name: string;
  readonly kind: SpanKindValue;
  readonly startTimeUnixNano: bigint;
}

/** A span being recorded. */
export class SpanBuilder {
  readonly start: SpanStart;
  readonly #attributes = new Map<string, AttributeValue>();
  readonly #events: SpanEvent[] = [];
  #droppedEvents = 0;
  #status: SpanStatus = { code: 0, message: "" };
  #name: string;

  constructor(start: SpanStart) {
    this.start = start;
    this.#name = start.name;
  }

  /** Sets one attribute; `undefined` leaves it as it is, so optional facts need no branches. */
  set(key: string, value: AttributeValue | undefined): this {
    if (value === undefined) return this;
    if (this.#attributes.size >= MAX_ATTRIBUTES && !this.#attributes.has(key)) return this;
    this.#attributes.set(key, value);
    return this;
  }

  /** Renames the span (the name is known better once the model is resolved). */
  rename(name: string): this {
    this.#name = name;
    return this;
  }

  /** Records an event. */
  event(name: string, timeUnixNano: bigint, attributes: readonly Attribute[] = []): this {
    if (this.#events.length >= MAX_EVENTS) this.#droppedEvents++;
    else this.#events.push({ name, timeUnixNano, attributes });
    return this;
  }

  /** Marks the outcome. */
  status(status: SpanStatus): this {
    this.#status = status;
    return this;
  }

  #attributeList(): Attribute[] {
    const out: Attribute[] = [];
    this.#attributes.forEach((value, key) => out.push({ key, value }));
    return out;
  }

  /** The finished span (an end before the start is clamped: clocks can step). */
  end(endTimeUnixNano: bigint): SpanData {
    const s = this.start;
    return {
      traceId: s.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId,
      parentIsRemote: s.parentIsRemote,
      traceState: s.traceState,
      flags: s.flags,
      name: this.#name,
      kind: s.kind,
      startTimeUnixNano: s.startTimeUnixNano,
      endTimeUnixNano: endTimeUnixNano < s.startTimeUnixNano ? s.startTimeUnixNano : endTimeUnixNano,
      attributes: this.#attributeList(),
      events: this.#events,
      droppedEventsCount: this.#droppedEvents,
      status: this.#status,
    };
  }
}
