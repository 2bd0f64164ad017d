/**
 * A small protobuf reader for tests: decodes an OTLP ExportTraceServiceRequest (as the gateway's
 * hand-written encoder writes it) back into the gateway's span data, so a round trip can be compared
 * field by field. Written from the opentelemetry-proto field numbers, independently of the encoder.
 */
import type { Resource } from "../../src/telemetry/resource.ts";
import type {
  Attribute,
  AttributeValue,
  SpanData,
  SpanEvent,
  SpanKindValue,
} from "../../src/telemetry/span.ts";

/** One field as read: varints and fixed ints as bigint, length-delimited fields as bytes. */
type Raw = { field: number; wire: 0 | 1 | 5; int: bigint; bytes?: undefined } | {
  field: number;
  wire: 2;
  bytes: Uint8Array;
  int?: undefined;
};

/** Every field of one message, in order. */
export function readFields(buf: Uint8Array): Raw[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Raw[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error("truncated varint");
      const b = buf[pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 63n) throw new Error("varint too long");
    }
  };
  while (pos < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ field, wire, int: varint() });
    else if (wire === 1) {
      out.push({ field, wire, int: view.getBigUint64(pos, true) });
      pos += 8;
    } else if (wire === 5) {
      out.push({ field, wire, int: BigInt(view.getUint32(pos, true)) });
      pos += 4;
    } else if (wire === 2) {
      const length = Number(varint());
      if (pos + length > buf.length) throw new Error("truncated bytes");
      out.push({ field, wire, bytes: buf.subarray(pos, pos + length) });
      pos += length;
    } else throw new Error(`unknown wire type ${wire}`);
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const bytesOf = (f: Raw): Uint8Array => {
  if (f.wire !== 2) throw new Error(`field ${f.field} is not length-delimited`);
  return f.bytes;
};
const intOf = (f: Raw): bigint => {
  if (f.wire === 2) throw new Error(`field ${f.field} is length-delimited`);
  return f.int;
};

function anyValue(buf: Uint8Array): AttributeValue {
  const fields = readFields(buf);
  if (fields.length !== 1) throw new Error(`AnyValue with ${fields.length} fields`);
  const f = fields[0];
  switch (f.field) {
    case 1:
      return { kind: "string", value: utf8.decode(bytesOf(f)) };
    case 2:
      return { kind: "bool", value: intOf(f) !== 0n };
    case 3:
      return { kind: "int", value: BigInt.asIntN(64, intOf(f)) };
    case 4: {
      const v = new DataView(new ArrayBuffer(8));
      v.setBigUint64(0, intOf(f), true);
      return { kind: "double", value: v.getFloat64(0, true) };
    }
    case 5:
      return { kind: "array", values: readFields(bytesOf(f)).map((x) => anyValue(bytesOf(x))) };
    default:
      throw new Error(`AnyValue field ${f.field}`);
  }
}

function keyValue(buf: Uint8Array): Attribute {
  let key = "";
  let value: AttributeValue | undefined;
  for (const f of readFields(buf)) {
    if (f.field === 1) key = utf8.decode(bytesOf(f));
    else if (f.field === 2) value = anyValue(bytesOf(f));
  }
  if (value === undefined) throw new Error(`attribute ${key} without a value`);
  return { key, value };
}

function event(buf: Uint8Array): SpanEvent {
  let name = "";
  let time = 0n;
  const attributes: Attribute[] = [];
  for (const f of readFields(buf)) {
    if (f.field === 1) time = intOf(f);
    else if (f.field === 2) name = utf8.decode(bytesOf(f));
    else if (f.field === 3) attributes.push(keyValue(bytesOf(f)));
  }
  return { name, timeUnixNano: time, attributes };
}

/** A decoded span, with the raw OTLP `flags` field beside the span data. */
export interface DecodedSpan {
  readonly span: SpanData;
  readonly otlpFlags: number;
}

function span(buf: Uint8Array): DecodedSpan {
  const s = {
    traceId: "",
    spanId: "",
    parentSpanId: "",
    traceState: "",
    name: "",
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: [] as Attribute[],
    events: [] as SpanEvent[],
    droppedEventsCount: 0,
    status: { code: 0, message: "" },
  };
  let otlpFlags = 0;
  for (const f of readFields(buf)) {
    switch (f.field) {
      case 1:
        s.traceId = hex(bytesOf(f));
        break;
      case 2:
        s.spanId = hex(bytesOf(f));
        break;
      case 3:
        s.traceState = utf8.decode(bytesOf(f));
        break;
      case 4:
        s.parentSpanId = hex(bytesOf(f));
        break;
      case 5:
        s.name = utf8.decode(bytesOf(f));
        break;
      case 6:
        s.kind = Number(intOf(f));
        break;
      case 7:
        s.startTimeUnixNano = intOf(f);
        break;
      case 8:
        s.endTimeUnixNano = intOf(f);
        break;
      case 9:
        s.attributes.push(keyValue(bytesOf(f)));
        break;
      case 11:
        s.events.push(event(bytesOf(f)));
        break;
      case 12:
        s.droppedEventsCount = Number(intOf(f));
        break;
      case 15:
        for (const g of readFields(bytesOf(f))) {
          if (g.field === 2) s.status.message = utf8.decode(bytesOf(g));
          if (g.field === 3) s.status.code = Number(intOf(g));
        }
        break;
      case 16:
        if (f.wire !== 5) throw new Error("span flags must be fixed32");
        otlpFlags = Number(intOf(f));
        break;
      default:
        throw new Error(`unexpected span field ${f.field}`);
    }
  }
  return {
    span: {
      ...s,
      kind: s.kind as SpanKindValue,
      status: s.status as SpanData["status"],
      flags: otlpFlags & 0xff,
      parentIsRemote: (otlpFlags & 0x200) !== 0,
    },
    otlpFlags,
  };
}

/** The resource and spans of an ExportTraceServiceRequest. */
export function decodeExportTraceRequest(body: Uint8Array): { resource: Resource; spans: DecodedSpan[] } {
  const attributes: Attribute[] = [];
  let scopeName = "";
  let scopeVersion = "";
  const spans: DecodedSpan[] = [];
  for (const rs of readFields(body)) {
    if (rs.field !== 1) throw new Error(`unexpected request field ${rs.field}`);
    for (const f of readFields(bytesOf(rs))) {
      if (f.field === 1) {
        for (const a of readFields(bytesOf(f))) if (a.field === 1) attributes.push(keyValue(bytesOf(a)));
      } else if (f.field === 2) {
        for (const g of readFields(bytesOf(f))) {
          if (g.field === 1) {
            for (const h of readFields(bytesOf(g))) {
              if (h.field === 1) scopeName = utf8.decode(bytesOf(h));
              if (h.field === 2) scopeVersion = utf8.decode(bytesOf(h));
            }
          } else if (g.field === 2) spans.push(span(bytesOf(g)));
        }
      }
    }
  }
  return { resource: { attributes, scopeName, scopeVersion }, spans };
}
