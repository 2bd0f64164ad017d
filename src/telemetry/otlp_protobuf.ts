/**
 * OTLP/HTTP binary encoding (`application/x-protobuf`) of an ExportTraceServiceRequest, written by
 * hand: the gateway needs one message type, and a protobuf library would be a dependency for a few
 * hundred bytes of logic. Field numbers follow opentelemetry-proto (collector/trace/v1,
 * trace/v1/trace.proto, common/v1, resource/v1). A nested message's length is not known before its
 * body is written, so one byte is reserved and the body is moved right when the length needs more.
 * Spans are encoded one at a time as they end (`add`), not when their batch is sent: a span kept as
 * objects until its batch leaves outlives the young generation and costs the garbage collector far more
 * than encoding it (measured: most of tracing's cost per request). `seal` wraps what was added.
 */
import type { Resource } from "./resource.ts";
import {
  type Attributes,
  type AttributeSink,
  type AttributeValue,
  type SpanData,
  type SpanEvent,
  writeAttributes,
} from "./span.ts";

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
  /** A detached buffer handed back (`recycle`), written into by the next `detach` when big enough. */
  #spare: Uint8Array<ArrayBuffer> | null = null;
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
      buf[pos++] = (HEX_VALUE[hex.charCodeAt(i) & 0x7f] << 4) | HEX_VALUE[hex.charCodeAt(i + 1) & 0x7f];
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

  /** How many bytes are written. */
  get length(): number {
    return this.#pos;
  }

  /** Forgets everything written after `length` bytes (a span whose encoding failed half-way). */
  truncate(length: number): void {
    this.#pos = length;
  }

  /** The bytes written so far (a view, valid until the next write). */
  view(): Uint8Array {
    return this.#buf.subarray(0, this.#pos);
  }

  /** Leaves `n` bytes to be filled in later (`detach`'s caller writes a header there). */
  skip(n: number): void {
    this.#ensure(n);
    this.#pos += n;
  }

  /**
   * What was written, without a copy: the writer hands its buffer over and goes on in the recycled one
   * when there is one as big, else in a new one of the same size (the next batch is likely the size of
   * this one; a batch that needs more grows as any write does).
   */
  detach(): Uint8Array {
    const out = this.#buf.subarray(0, this.#pos);
    const spare = this.#spare;
    this.#spare = null;
    this.#buf = spare !== null && spare.length >= this.#pos
      ? spare
      : new Uint8Array(Math.max(4096, this.#pos));
    this.#view = new DataView(this.#buf.buffer);
    this.#pos = 0;
    return out;
  }

  /** Takes back a buffer `detach` handed over, once nothing reads it; the largest one is kept. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer === this.#buf.buffer || (this.#spare !== null && this.#spare.length >= buffer.byteLength)) {
      return;
    }
    this.#spare = new Uint8Array(buffer);
  }

  /** A copy of what was written; the writer starts over and keeps its buffer for the next batch. */
  finish(): Uint8Array {
    const out = this.#buf.slice(0, this.#pos);
    this.#pos = 0;
    return out;
  }
}

/** How many bytes `value` takes as a varint. */
function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v > 0x7f; v = Math.floor(v / 128)) size++;
  return size;
}

/** The value of each lowercase hex digit by its char code (ids are validated before they get here). */
const HEX_VALUE = (() => {
  const table = new Uint8Array(128);
  for (let i = 0; i < 16; i++) table[i.toString(16).charCodeAt(0)] = i;
  return table;
})();

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
/** Most string values cached per key, and in all, and the longest value cached. */
const MAX_VALUES_PER_KEY = 256;
const MAX_CACHED_PAIRS = 4096;
const MAX_CACHED_VALUE_LENGTH = 256;

/**
 * Encodes ExportTraceServiceRequests for one resource, a span at a time. One instance per exporter: it
 * keeps its buffers between batches and the encoded bytes of attribute keys, which repeat on every span
 * (the key field of a KeyValue is the same bytes every time).
 */
export class ProtobufTraceEncoder {
  readonly contentType = PROTOBUF_CONTENT_TYPE;
  /** The open batch's spans, each as ScopeSpans field 2 (tag, length, Span). */
  readonly #w = new Writer();
  readonly #keys = new Map<string, Uint8Array>();
  /**
   * Encoded KeyValue bodies (key and value fields) of string attributes, by key then value: models,
   * providers, accounts and surfaces repeat on every request, and copying their bytes beats encoding
   * them. A key whose values do not repeat (request ids) fills its map and is then written directly.
   */
  readonly #pairs = new Map<string, Map<string, Uint8Array> | null>();
  #pairCount = 0;
  /** ResourceSpans field 1 (the Resource) and ScopeSpans field 1 (the scope): the same for every batch. */
  readonly #resource: Uint8Array;
  readonly #scope: Uint8Array;
  /** Room left before each batch's spans for the longest header `seal` can write in front of them. */
  readonly #headerRoom: number;

  constructor(resource: Resource) {
    const w = this.#w;
    const res = w.begin(1);
    this.#keyValues(1, resource.attributes);
    w.end(res);
    this.#resource = w.finish();
    const scope = w.begin(1);
    w.string(1, resource.scopeName);
    w.string(2, resource.scopeVersion);
    w.end(scope);
    this.#scope = w.finish();
    // Tags and two lengths of at most 5 bytes each around the fixed parts.
    this.#headerRoom = 1 + 5 + this.#resource.length + 1 + 5 + this.#scope.length;
    w.skip(this.#headerRoom);
  }

  /** Appends one span to the open batch; a span that fails to encode leaves the batch as it was. */
  add(span: SpanData): void {
    const before = this.#w.length;
    try {
      this.#span(span);
    } catch (error) {
      this.#w.truncate(before);
      throw error;
    }
  }

  /** The ExportTraceServiceRequest holding the spans added since the last seal; the next batch starts empty. */
  seal(): Uint8Array {
    const room = this.#headerRoom;
    const batch = this.#w.detach();
    this.#w.skip(room);
    const spans = batch.length - room;
    const scopeSpans = this.#scope.length + spans;
    const resourceSpans = this.#resource.length + 1 + varintSize(scopeSpans) + scopeSpans;
    const header = 1 + varintSize(resourceSpans) + this.#resource.length + 1 + varintSize(scopeSpans) +
      this.#scope.length;
    // The header goes right before the spans, in the room left for it: the spans are never copied.
    let at = room - header;
    const varint = (value: number) => {
      let v = value;
      while (v > 0x7f) {
        batch[at++] = (v % 128) | 0x80;
        v = Math.floor(v / 128);
      }
      batch[at++] = v;
    };
    const start = at;
    batch[at++] = (1 << 3) | LEN;
    varint(resourceSpans);
    batch.set(this.#resource, at);
    at += this.#resource.length;
    batch[at++] = (2 << 3) | LEN;
    varint(scopeSpans);
    batch.set(this.#scope, at);
    return batch.subarray(start);
  }

  /** A sealed body's memory may hold a later batch (the exporter calls this once its export was answered). */
  release(body: Uint8Array): void {
    if (body.buffer instanceof ArrayBuffer) this.#w.recycle(body.buffer);
  }

  /** The field number the attribute sink writes KeyValues as (9 in a span, 3 in an event, 1 in a resource). */
  #field = 9;

  /** Starts a KeyValue in `#field` with its key; returns where its body starts (for `end`). */
  #key(key: string): number {
    const w = this.#w;
    const start = w.begin(this.#field);
    let bytes = this.#keys.get(key);
    if (bytes === undefined && this.#keys.size < MAX_CACHED_KEYS) {
      const one = new Writer();
      one.string(1, key, true);
      bytes = one.finish();
      this.#keys.set(key, bytes);
    }
    if (bytes !== undefined) w.raw(bytes);
    else w.string(1, key, true);
    return start;
  }

  /** Writes each attribute as a KeyValue straight into the batch, with no object per attribute. */
  readonly #sink: AttributeSink = {
    string: (key, value) => {
      const w = this.#w;
      const body = this.#stringPair(key, value);
      if (body !== null) {
        w.tag(this.#field, LEN);
        w.varint(body.length);
        w.raw(body);
        return;
      }
      const start = this.#openValue(key);
      w.string(1, value, true);
      this.#closeValue(start);
    },
    int: (key, value) => {
      const w = this.#w;
      const start = this.#openValue(key);
      w.tag(3, VARINT);
      const whole = Math.trunc(value);
      if (whole >= 0 && whole <= Number.MAX_SAFE_INTEGER) w.varint(whole);
      else w.varint64(BigInt(whole));
      this.#closeValue(start);
    },
    double: (key, value) => {
      const start = this.#openValue(key);
      this.#w.double(4, value);
      this.#closeValue(start);
    },
    bool: (key, value) => {
      const start = this.#openValue(key);
      this.#w.tag(2, VARINT);
      this.#w.varint(value ? 1 : 0);
      this.#closeValue(start);
    },
    strings: (key, values) => {
      const w = this.#w;
      const start = this.#openValue(key);
      const array = w.begin(5);
      for (const value of values) {
        const item = w.begin(1);
        w.string(1, value, true);
        w.end(item);
      }
      w.end(array);
      this.#closeValue(start);
    },
    value: (key, value) => {
      const start = this.#key(key);
      anyValue(this.#w, 2, value);
      this.#w.end(start);
    },
  };

  /** Where the open KeyValue's AnyValue body starts (values do not nest, so one is enough). */
  #any = 0;

  /** Starts a KeyValue and its AnyValue; returns the KeyValue's start for `#closeValue`. */
  #openValue(key: string): number {
    const start = this.#key(key);
    this.#any = this.#w.begin(2);
    return start;
  }

  #closeValue(start: number): void {
    this.#w.end(this.#any);
    this.#w.end(start);
  }

  /** The cached KeyValue body of a string attribute, or null when this key is not cached. */
  #stringPair(key: string, value: string): Uint8Array | null {
    let byValue = this.#pairs.get(key);
    if (byValue === null || value.length > MAX_CACHED_VALUE_LENGTH) return null;
    const cached = byValue?.get(value);
    if (cached !== undefined) return cached;
    if (byValue === undefined) {
      byValue = new Map();
      this.#pairs.set(key, byValue);
    }
    if (byValue.size >= MAX_VALUES_PER_KEY || this.#pairCount >= MAX_CACHED_PAIRS) {
      // This key's values do not repeat enough (or the cache is full): stop caching it.
      this.#pairCount -= byValue.size;
      this.#pairs.set(key, null);
      return null;
    }
    const one = new Writer();
    one.string(1, key, true);
    const any = one.begin(2);
    one.string(1, value, true);
    one.end(any);
    const body = one.finish();
    byValue.set(value, body);
    this.#pairCount++;
    return body;
  }

  #keyValues(field: number, attributes: Attributes): void {
    this.#field = field;
    writeAttributes(attributes, this.#sink);
  }

  #event(e: SpanEvent): void {
    const w = this.#w;
    const start = w.begin(11);
    w.fixed64(1, e.timeUnixNano);
    w.string(2, e.name);
    this.#keyValues(3, e.attributes);
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
    this.#keyValues(9, s.attributes);
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
  const encoder = new ProtobufTraceEncoder(resource);
  for (const span of spans) encoder.add(span);
  return encoder.seal();
}
