/**
 * OTLP/HTTP JSON encoding (`application/json`): the protobuf JSON mapping with OTLP's deviations —
 * trace and span ids as hex (not base64), enums as integers, lowerCamelCase keys, 64-bit integers as
 * decimal strings. Some backends (and proxies that inspect bodies) take only this form.
 */
import type { Resource } from "./resource.ts";
import { type Attribute, attributeList, type AttributeValue, type SpanData, type SpanEvent } from "./span.ts";
import { spanFlags } from "./otlp_protobuf.ts";

/** The content type of this encoding. */
export const JSON_CONTENT_TYPE = "application/json";

/** An OTLP JSON AnyValue. */
export type JsonAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number | string }
  | { arrayValue: { values: JsonAnyValue[] } };

function anyValue(value: AttributeValue): JsonAnyValue {
  switch (value.kind) {
    case "string":
      return { stringValue: value.value };
    case "bool":
      return { boolValue: value.value };
    case "int":
      return { intValue: value.value.toString() };
    case "double":
      // JSON has no NaN or Infinity; the protobuf JSON mapping spells them as strings.
      return {
        doubleValue: Number.isFinite(value.value)
          ? value.value
          : Number.isNaN(value.value)
          ? "NaN"
          : value.value > 0
          ? "Infinity"
          : "-Infinity",
      };
    case "array":
      return { arrayValue: { values: value.values.map(anyValue) } };
  }
}

function attributes(list: readonly Attribute[]): { key: string; value: JsonAnyValue }[] {
  return list.map((a) => ({ key: a.key, value: anyValue(a.value) }));
}

function event(e: SpanEvent): Record<string, unknown> {
  return { timeUnixNano: e.timeUnixNano.toString(), name: e.name, attributes: attributes(e.attributes) };
}

function span(s: SpanData): Record<string, unknown> {
  const out: Record<string, unknown> = {
    traceId: s.traceId,
    spanId: s.spanId,
    name: s.name,
    kind: s.kind,
    startTimeUnixNano: s.startTimeUnixNano.toString(),
    endTimeUnixNano: s.endTimeUnixNano.toString(),
    attributes: attributes(attributeList(s.attributes)),
    events: s.events.map(event),
    flags: spanFlags(s),
  };
  if (s.parentSpanId !== "") out.parentSpanId = s.parentSpanId;
  if (s.traceState !== "") out.traceState = s.traceState;
  if (s.droppedEventsCount > 0) out.droppedEventsCount = s.droppedEventsCount;
  if (s.status.code !== 0 || s.status.message !== "") {
    out.status = s.status.message === ""
      ? { code: s.status.code }
      : { code: s.status.code, message: s.status.message };
  }
  return out;
}

/** The ExportTraceServiceRequest as an OTLP JSON value. */
export function tracesJsonValue(resource: Resource, spans: readonly SpanData[]): Record<string, unknown> {
  return {
    resourceSpans: [{
      resource: { attributes: attributes(resource.attributes) },
      scopeSpans: [{
        scope: { name: resource.scopeName, version: resource.scopeVersion },
        spans: spans.map(span),
      }],
    }],
  };
}

/**
 * Encodes ExportTraceServiceRequests as JSON for one resource, a span at a time: each span becomes its
 * JSON text when it ends, so no span's objects outlive its request (see ProtobufTraceEncoder).
 */
export class JsonTraceEncoder {
  readonly contentType = JSON_CONTENT_TYPE;
  readonly #head: string;
  readonly #spans: string[] = [];
  readonly #utf8 = new TextEncoder();

  constructor(resource: Resource) {
    const empty = JSON.stringify(tracesJsonValue(resource, []));
    // Everything before the empty spans array's closing bracket; the spans go there.
    this.#head = empty.slice(0, empty.lastIndexOf('"spans":[') + '"spans":['.length);
  }

  /** Appends one span to the open batch. */
  add(s: SpanData): void {
    this.#spans.push(JSON.stringify(span(s)));
  }

  /** The ExportTraceServiceRequest holding the spans added since the last seal; the next batch starts empty. */
  seal(): Uint8Array {
    const body = `${this.#head}${this.#spans.join(",")}]}]}]}`;
    this.#spans.length = 0;
    return this.#utf8.encode(body);
  }

  /** Nothing to reuse: each body is the encoding of one string, made when the batch is sealed. */
  release(_body: Uint8Array): void {}
}

/** The UTF-8 JSON body of an ExportTraceServiceRequest holding these spans under one resource. */
export function encodeTracesJson(resource: Resource, spans: readonly SpanData[]): Uint8Array {
  const encoder = new JsonTraceEncoder(resource);
  for (const s of spans) encoder.add(s);
  return encoder.seal();
}
