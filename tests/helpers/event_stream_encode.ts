/**
 * An AWS event-stream encoder for tests and mock upstreams, written apart from the gateway's decoder (it
 * has its own CRC-32) so the two check each other rather than share a mistake.
 */

/** A header value as the encoder takes it (the decoder's shape). */
export type HeaderValue =
  | { type: "bool"; value: boolean }
  | { type: "byte" | "short" | "int"; value: number }
  | { type: "long" | "timestamp"; value: bigint }
  | { type: "bytes"; value: Uint8Array }
  | { type: "string"; value: string }
  | { type: "uuid"; value: string };

/** One header to encode. */
export interface Header {
  name: string;
  value: HeaderValue;
}

function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}

const encoder = new TextEncoder();

function headerBytes(header: Header): Uint8Array {
  const name = encoder.encode(header.name);
  const parts: number[] = [name.length, ...name];
  const v = header.value;
  const fixed = (type: number, size: number, write: (view: DataView) => void) => {
    const buffer = new DataView(new ArrayBuffer(size));
    write(buffer);
    parts.push(type, ...new Uint8Array(buffer.buffer));
  };
  switch (v.type) {
    case "bool":
      parts.push(v.value ? 0 : 1);
      break;
    case "byte":
      fixed(2, 1, (d) => d.setInt8(0, v.value));
      break;
    case "short":
      fixed(3, 2, (d) => d.setInt16(0, v.value));
      break;
    case "int":
      fixed(4, 4, (d) => d.setInt32(0, v.value));
      break;
    case "long":
      fixed(5, 8, (d) => d.setBigInt64(0, v.value));
      break;
    case "timestamp":
      fixed(8, 8, (d) => d.setBigInt64(0, v.value));
      break;
    case "bytes":
    case "string": {
      const data = v.type === "bytes" ? v.value : encoder.encode(v.value);
      parts.push(v.type === "bytes" ? 6 : 7, data.length >> 8, data.length & 0xff, ...data);
      break;
    }
    case "uuid": {
      const hex = v.value.replaceAll("-", "");
      parts.push(9);
      for (let i = 0; i < 32; i += 2) parts.push(parseInt(hex.slice(i, i + 2), 16));
      break;
    }
  }
  return new Uint8Array(parts);
}

/** Encodes one message: prelude, prelude CRC, headers, payload, message CRC. */
export function encodeEventStreamMessage(headers: readonly Header[], payload: Uint8Array): Uint8Array {
  const encodedHeaders = headers.map(headerBytes);
  const headersLength = encodedHeaders.reduce((n, h) => n + h.length, 0);
  const total = 16 + headersLength + payload.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc(out.subarray(0, 8)));
  let at = 12;
  for (const h of encodedHeaders) {
    out.set(h, at);
    at += h.length;
  }
  out.set(payload, at);
  view.setUint32(total - 4, crc(out.subarray(0, total - 4)));
  return out;
}

/** A Kiro-style event message: `:event-type`, `:content-type` and `:message-type` string headers, JSON payload. */
export function kiroEvent(eventType: string, payload: unknown): Uint8Array {
  return encodeEventStreamMessage([
    { name: ":event-type", value: { type: "string", value: eventType } },
    { name: ":content-type", value: { type: "string", value: "application/json" } },
    { name: ":message-type", value: { type: "string", value: "event" } },
  ], encoder.encode(JSON.stringify(payload)));
}

/** A Kiro-style exception message (`:message-type: exception`). */
export function kiroException(exceptionType: string, message: string): Uint8Array {
  return encodeEventStreamMessage([
    { name: ":exception-type", value: { type: "string", value: exceptionType } },
    { name: ":content-type", value: { type: "string", value: "application/json" } },
    { name: ":message-type", value: { type: "string", value: "exception" } },
  ], encoder.encode(JSON.stringify({ message })));
}
