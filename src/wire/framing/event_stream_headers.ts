import { GatewayError } from "../../model/errors.ts";

/** One typed header value of an AWS event-stream message (every type the encoding defines). */
export type EventStreamHeaderValue =
  | { readonly type: "bool"; readonly value: boolean }
  | { readonly type: "byte" | "short" | "int"; readonly value: number }
  // 64-bit values stay bigint: a number would silently round values past 2^53.
  | { readonly type: "long" | "timestamp"; readonly value: bigint }
  | { readonly type: "bytes"; readonly value: Uint8Array }
  | { readonly type: "string"; readonly value: string }
  /** Lower-case hex in 8-4-4-4-12 form. */
  | { readonly type: "uuid"; readonly value: string };

/** One header: a name and its typed value, in wire order. */
export interface EventStreamHeader {
  readonly name: string;
  readonly value: EventStreamHeaderValue;
}

/** The error for bytes that are not a well-formed event-stream message. */
export function corruptEventStream(reason: string): GatewayError {
  return new GatewayError(502, "upstream", `The upstream sent a corrupt event stream: ${reason}`);
}

// fatal: a header name or string that is not UTF-8 is corruption, not text to patch up with U+FFFD.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Short ASCII (every header name and type Kiro sends) is read byte by byte: a TextDecoder call costs more. */
function asciiOrUndefined(bytes: Uint8Array): string | undefined {
  if (bytes.length > 64) return undefined;
  let out = "";
  for (const b of bytes) {
    if (b >= 0x80) return undefined;
    out += String.fromCharCode(b);
  }
  return out;
}

function text(bytes: Uint8Array, what: string): string {
  const ascii = asciiOrUndefined(bytes);
  if (ascii !== undefined) return ascii;
  try {
    return utf8.decode(bytes);
  } catch {
    throw corruptEventStream(`${what} is not UTF-8`);
  }
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
}

/**
 * Parses the headers section `bytes[start, end)`. Every value type is skipped by its own size, so a
 * header of a type the caller does not use never desynchronises the ones after it; a header that runs
 * past the section, or an unknown type, is corruption.
 */
export function parseHeaders(bytes: Uint8Array, start: number, end: number): EventStreamHeader[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: EventStreamHeader[] = [];
  let at = start;
  const need = (n: number) => {
    if (at + n > end) throw corruptEventStream("a header runs past the headers section");
  };
  while (at < end) {
    need(1);
    const nameLength = bytes[at++];
    if (nameLength === 0) throw corruptEventStream("a header has an empty name");
    need(nameLength + 1);
    const name = text(bytes.subarray(at, at + nameLength), "a header name");
    at += nameLength;
    const type = bytes[at++];
    let value: EventStreamHeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = { type: "bool", value: type === 0 };
        break;
      case 2:
        need(1);
        value = { type: "byte", value: view.getInt8(at) };
        at += 1;
        break;
      case 3:
        need(2);
        value = { type: "short", value: view.getInt16(at) };
        at += 2;
        break;
      case 4:
        need(4);
        value = { type: "int", value: view.getInt32(at) };
        at += 4;
        break;
      case 5:
      case 8:
        need(8);
        value = { type: type === 5 ? "long" : "timestamp", value: view.getBigInt64(at) };
        at += 8;
        break;
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const data = bytes.slice(at, at + length);
        at += length;
        value = type === 6
          ? { type: "bytes", value: data }
          : { type: "string", value: text(data, "a header") };
        break;
      }
      case 9:
        need(16);
        value = { type: "uuid", value: hex(bytes.subarray(at, at + 16)) };
        at += 16;
        break;
      default:
        throw corruptEventStream(`header "${name.slice(0, 64)}" has unknown type ${type}`);
    }
    headers.push({ name, value });
  }
  return headers;
}
