/**
 * Spans as plain data: what the request lifecycle records and what the OTLP encoders read. No
 * behaviour beyond building values; times are unix nanoseconds as bigint because they exceed 2^53.
 * A span's attributes are either a list or a function that writes them into an AttributeSink: the
 * request path records only the facts it already has and the encoder writes the attributes straight
 * into bytes, so no per-attribute objects are made for the thousands of requests a second it traces.
 */

/** An attribute value with its OTLP type kept: `int` and `double` differ on the wire and in backends. */
export type AttributeValue =
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "double"; readonly value: number }
  | { readonly kind: "array"; readonly values: readonly AttributeValue[] };

/** One attribute. */
export interface Attribute {
  readonly key: string;
  readonly value: AttributeValue;
}

/** Receives attributes one at a time: an encoder writing them, or `attributeList` collecting them. */
export interface AttributeSink {
  string(key: string, value: string): void;
  /** A whole number (a fraction is truncated toward zero). */
  int(key: string, value: number): void;
  double(key: string, value: number): void;
  bool(key: string, value: boolean): void;
  strings(key: string, values: readonly string[]): void;
  /** Any value, as tests and content capture build them. */
  value(key: string, value: AttributeValue): void;
}

/** A span's attributes: a list, or a function writing them into a sink (the request path's form). */
export type Attributes = readonly Attribute[] | ((sink: AttributeSink) => void);

/** Writes the attributes into the sink, whichever form they take. */
export function writeAttributes(attributes: Attributes, sink: AttributeSink): void {
  if (typeof attributes === "function") return attributes(sink);
  for (const a of attributes) sink.value(a.key, a.value);
}

/** The attributes as a list (a later value for a key replaces the earlier one, in the earlier place). */
export function attributeList(attributes: Attributes): Attribute[] {
  if (typeof attributes !== "function") return [...attributes];
  const byKey = new Map<string, AttributeValue>();
  attributes({
    string: (key, value) => byKey.set(key, str(value)),
    int: (key, value) => byKey.set(key, int(value)),
    double: (key, value) => byKey.set(key, double(value)),
    bool: (key, value) => byKey.set(key, bool(value)),
    strings: (key, values) => byKey.set(key, strings(values)),
    value: (key, value) => byKey.set(key, value),
  });
  return [...byKey].map(([key, value]) => ({ key, value }));
}

/** What the span describes, as OTLP numbers it (SpanKind enum). */
export const SpanKind = {
  internal: 1,
  server: 2,
  client: 3,
  producer: 4,
  consumer: 5,
} as const;

/** One of the SpanKind values. */
export type SpanKindValue = (typeof SpanKind)[keyof typeof SpanKind];

/** OTLP status codes: unset (the default), ok, error. */
export const StatusCode = { unset: 0, ok: 1, error: 2 } as const;

/** A span's outcome. */
export interface SpanStatus {
  readonly code: (typeof StatusCode)[keyof typeof StatusCode];
  /** Only meaningful with the error code. */
  readonly message: string;
}

/** Something that happened at one instant inside a span. */
export interface SpanEvent {
  readonly name: string;
  readonly timeUnixNano: bigint;
  readonly attributes: readonly Attribute[];
}

/** A finished span, ready to export. */
export interface SpanData {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  /** The W3C tracestate the span carries ("" when none). */
  readonly traceState: string;
  /** W3C trace flags (bit 0: sampled). */
  readonly flags: number;
  /** True when the parent came from another process; OTLP records it in the span flags. */
  readonly parentIsRemote: boolean;
  readonly name: string;
  readonly kind: SpanKindValue;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Attributes;
  readonly events: readonly SpanEvent[];
  /** Events beyond the per-span cap, reported to the backend as OTLP asks. */
  readonly droppedEventsCount: number;
  readonly status: SpanStatus;
}

/** A string attribute value. */
export function str(value: string): AttributeValue {
  return { kind: "string", value };
}

/** An integer attribute value (a non-integer number is truncated toward zero). */
export function int(value: number | bigint): AttributeValue {
  return { kind: "int", value: typeof value === "bigint" ? value : BigInt(Math.trunc(value)) };
}

/** A floating-point attribute value. */
export function double(value: number): AttributeValue {
  return { kind: "double", value };
}

/** A boolean attribute value. */
export function bool(value: boolean): AttributeValue {
  return { kind: "bool", value };
}

/** An array of strings (the GenAI conventions use these for finish reasons). */
export function strings(values: readonly string[]): AttributeValue {
  return { kind: "array", values: values.map(str) };
}
