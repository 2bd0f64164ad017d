/**
 * OTLP/HTTP binary encoding (`application/x-protobuf`) of an ExportTraceServiceRequest, written by
 * hand: the gateway needs one message type, and a protobuf library would be a dependency for a few
 * hundred bytes of logic. Field numbers follow opentelemetry-proto (collector/trace/v1,
 * trace/v1/trace.proto, common/v1, resource/v1). A nested message's length is not known before its
 * body is written, so one byte is reserved and the body is moved right when the length needs more.
 */
import type { Resource } from "./resource.ts";
import type { Attribute, AttributeValue, SpanData, SpanEvent } from "./span.ts";

/** The content type of this encoding. */
export const PROTOBUF_CONTENT_TYPE = "application/x-protobuf";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

/** Span flags bits (trace.proto SpanFlags): the parent's remoteness is known, and it is remote. */
export const SPAN_FLAGS_HAS_IS_REMOTE = 0x100;
/** Set with SPAN_FLAGS_HAS_IS_REMOTE when the parent came from another process. */
export const SPAN_FLAGS_IS_REMOTE = 0x200;

class Writer {
  #buf = new Uint8Array(4096);
  #view = new DataView(this.#buf.buffer);
  #pos = 0;
  readonly #utf8 = new TextEncoder();

  #ensure(extra: number): void {
    if (this.#pos + extra <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#pos));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  varint(value: number): void {
    this.#ensure(10);
    let v = value;
    while (v > 0x7f) {
      this.#buf[this.#pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buf[this.#pos++] = v;
  }

  varint64(value: bigint): void {
    if (value >= 0n && value <= MAX_SAFE) return this.varint(Number(value));
    let v = BigInt.asUintN(64, value);
    this.#ensure(10);
    while (v > 0x7fn) {
      this.#buf[this.#pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.#buf[this.#pos++] = Number(v);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  fixed64(field: number, value: bigint): void {
    this.tag(field, FIXED64);
    this.#ensure(8);
    this.#view.setBigUint64(this.#pos, BigInt.asUintN(64, value), true);
    this.#pos += 8;
  }

  fixed32(field: number, value: number): void {
    this.tag(field, FIXED32);
    this.#ensure(4);
    this.#view.setUint32(this.#pos, value >>> 0, true);
    this.#pos += 4;
  }

  double(field: number, value: number): void {
    this.tag(field, FIXED64);
    this.#ensure(8);
    this.#view.setFloat64(this.#pos, value, true);
    this.#pos += 8;
  }

  /** A bytes field from validated lowercase hex (trace and span ids), without an intermediate array. */
  hexBytes(field: number, hex: string): void {
    const size = hex.length >> 1;
    this.tag(field, LEN);
    this.varint(size);
    this.#ensure(size);
    // Locals, not private fields, in the loop: ids are encoded twice or thrice per span, and the
    // per-byte field access was the encoder's largest cost in a profile.
    const buf = this.#buf;
    let pos = this.#pos;
    for (let i = 0; i < hex.length; i += 2) {
      buf[pos++] = (hexValue(hex.charCodeAt(i)) << 4) | hexValue(hex.charCodeAt(i + 1));
    }
    this.#pos = pos;
  }

  /** A string field; `always` writes it even when empty (a oneof member must be present). */
  string(field: number, value: string, always = false): void {
    if (value === "" && !always) return;
    const start = this.begin(field);
    this.#ensure(value.length * 3);
    // Attribute keys and most values are ASCII: copying code units beats a call into the encoder.
    const buf = this.#buf;
    let pos = this.#pos;
    let i = 0;
    for (; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) break;
      buf[pos++] = c;
    }
    if (i < value.length) pos += this.#utf8.encodeInto(value.slice(i), buf.subarray(pos)).written;
    this.#pos = pos;
    this.end(start);
  }

  /** Writes the tag and reserves one length byte; returns where the body starts. */
  begin(field: number): number {
    this.tag(field, LEN);
    this.#ensure(1);
    this.#pos++;
    return this.#pos;
  }

  /** Writes the body's length before it, moving the body right when the length needs more bytes. */
  end(start: number): void {
    const length = this.#pos - start;
    let size = 1;
    for (let v = length; v > 0x7f; v = Math.floor(v / 128)) size++;
    if (size > 1) {
      this.#ensure(size - 1);
      this.#buf.copyWithin(start + size - 1, start, this.#pos);
      this.#pos += size - 1;
    }
    let at = start - 1;
    let v = length;
    while (v > 0x7f) {
      this.#buf[at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buf[at] = v;
  }

  /** Bytes already encoded (a cached attribute key field). */
  raw(bytes: Uint8Array): void {
    this.#ensure(bytes.length);
    this.#buf.set(bytes, this.#pos);
    this.#pos += bytes.length;
  }

  /** A copy of what was written; the writer starts over and keeps its buffer for the next batch. */
  finish(): Uint8Array {
    const out = this.#buf.slice(0, this.#pos);
    this.#pos = 0;
    return out;
  }
}

/** The value of one lowercase hex digit. */
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}

function anyValue(w: Writer, field: number, value: AttributeValue): void {
  const start = w.begin(field);
  switch (value.kind) {
    case "string":
      w.string(1, value.value, true);
      break;
    case "bool":
      w.tag(2, VARINT);
      w.varint(value.value ? 1 : 0);
      break;
    case "int":
      w.tag(3, VARINT);
      w.varint64(value.value);
      break;
    case "double":
      w.double(4, value.value);
      break;
    case "array": {
      const array = w.begin(5);
      for (const item of value.values) anyValue(w, 1, item);
      w.end(array);
      break;
    }
  }
  w.end(start);
}

/** Most distinct attribute keys whose encoding is cached (the gateway uses a few dozen). */
const MAX_CACHED_KEYS = 512;

/**
 * Encodes ExportTraceServiceRequests. One instance per exporter: it keeps its buffer between batches
 * and the encoded bytes of attribute keys, which repeat on every span (the key field of a KeyValue is
 * the same bytes every time).
 */
export class ProtobufTraceEncoder {
  readonly #w = new Writer();
  readonly #keys = new Map<string, Uint8Array>();

  /** The protobuf bytes of an ExportTraceServiceRequest holding these spans under one resource. */
  encode(resource: Resource, spans: readonly SpanData[]): Uint8Array {
    const w = this.#w;
    const resourceSpans = w.begin(1);
    const res = w.begin(1);
    for (const a of resource.attributes) this.#keyValue(1, a);
    w.end(res);
    const scopeSpans = w.begin(2);
    const scope = w.begin(1);
    w.string(1, resource.scopeName);
    w.string(2, resource.scopeVersion);
    w.end(scope);
    for (const s of spans) this.#span(s);
    w.end(scopeSpans);
    w.end(resourceSpans);
    return w.finish();
  }

  #keyValue(field: number, attribute: Attribute): void {
    const w = this.#w;
    const start = w.begin(field);
    let key = this.#keys.get(attribute.key);
    if (key === undefined && this.#keys.size < MAX_CACHED_KEYS) {
      const one = new Writer();
      one.string(1, attribute.key, true);
      key = one.finish();
      this.#keys.set(attribute.key, key);
    }
    if (key !== undefined) w.raw(key);
    else w.string(1, attribute.key, true);
    anyValue(w, 2, attribute.value);
    w.end(start);
  }

  #event(e: SpanEvent): void {
    const w = this.#w;
    const start = w.begin(11);
    w.fixed64(1, e.timeUnixNano);
    w.string(2, e.name);
    for (const a of e.attributes) this.#keyValue(3, a);
    w.end(start);
  }

  #span(s: SpanData): void {
    const w = this.#w;
    const start = w.begin(2);
    w.hexBytes(1, s.traceId);
    w.hexBytes(2, s.spanId);
    w.string(3, s.traceState);
    if (s.parentSpanId !== "") w.hexBytes(4, s.parentSpanId);
    w.string(5, s.name, true);
    w.tag(6, VARINT);
    w.varint(s.kind);
    w.fixed64(7, s.startTimeUnixNano);
    w.fixed64(8, s.endTimeUnixNano);
    for (const a of s.attributes) this.#keyValue(9, a);
    for (const e of s.events) this.#event(e);
    if (s.droppedEventsCount > 0) {
      w.tag(12, VARINT);
      w.varint(s.droppedEventsCount);
    }
    if (s.status.code !== 0 || s.status.message !== "") {
      const status = w.begin(15);
      w.string(2, s.status.message);
      if (s.status.code !== 0) {
        w.tag(3, VARINT);
        w.varint(s.status.code);
      }
      w.end(status);
    }
    w.fixed32(16, spanFlags(s));
    w.end(start);
  }
}

/** The OTLP span `flags` field: the W3C trace flags and whether the parent is remote. */
export function spanFlags(s: SpanData): number {
  return (s.flags & 0xff) | SPAN_FLAGS_HAS_IS_REMOTE | (s.parentIsRemote ? SPAN_FLAGS_IS_REMOTE : 0);
}

/** The protobuf bytes of an ExportTraceServiceRequest (a one-off encoder; exporters keep one). */
export function encodeTracesProtobuf(resource: Resource, spans: readonly SpanData[]): Uint8Array {
  return new ProtobufTraceEncoder().encode(resource, spans);
}
