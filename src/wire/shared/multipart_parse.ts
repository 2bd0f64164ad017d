/**
 * Reads a multipart/form-data body (RFC 7578, RFC 2046 section 5.1) into text fields and files, a bounded
 * stretch of bytes per step, so a caller can spread a big upload over turns of the event loop. Files are
 * views into the body, never copies. The runtime's own `formData()` held the serving loop about 250 ms for one
 * 30 MiB upload (docs/limits.md); this reads it in a few ms, in steps of at most STEP_BYTES.
 */
import { GatewayError, type MultipartBody, type UploadedFile } from "../../model/mod.ts";

/** Bytes scanned per step: about half a millisecond of searching, a few ms at worst (see `#find`). */
export const STEP_BYTES = 4 * 1024 * 1024;
/** Most parts a form may have: the endpoints take a few fields and files. */
export const MAX_PARTS = 1000;
/** Longest header block of one part. */
export const MAX_PART_HEAD_BYTES = 16 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const UTF8 = new TextDecoder();
const ENCODER = new TextEncoder();
/** RFC 2046's `bchars`; a longer boundary than its 70 is taken (some clients write one), up to 200. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{1,200}$/;

/**
 * The boundary a `multipart/form-data` content type names, or a 400 naming what is wrong with it. Only
 * the media type is checked here; the caller tells a non-multipart body apart first.
 */
export function multipartBoundary(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentType);
  const boundary = match === null ? undefined : match[1]?.replace(/\\(.)/g, "$1") ?? match[2];
  if (boundary === undefined) throw unreadable("its content type names no boundary");
  if (!BOUNDARY.test(boundary) || boundary.endsWith(" ")) {
    throw unreadable(`its boundary ${JSON.stringify(boundary.slice(0, 80))} is not a valid one`);
  }
  return boundary;
}

/**
 * A form being read. `step()` reads up to `stepBytes` further and answers null until the form is read,
 * then its fields (a repeated name keeps its last value) and files in order. Bad input is a 400.
 */
export class MultipartReader {
  readonly #body: Uint8Array<ArrayBuffer>;
  /** `\r\n--boundary`: what ends a part's content. */
  readonly #delimiter: Uint8Array;
  /** How far each byte value lets the search move on (Horspool's table). */
  readonly #shift: Int32Array;
  readonly #fields: Record<string, string> = {};
  readonly #files: UploadedFile[] = [];
  /** Where the current part's content starts, and its head; undefined before the first part. */
  #part: { readonly contentStart: number; readonly head: PartHead } | undefined;
  /** Where the search for the current part's end goes on. */
  #searchFrom = 0;
  #parts = 0;
  #started = false;
  #result: MultipartBody | undefined;

  readonly #stepBytes: number;

  /** `stepBytes`: how far one step reads (tests take less). */
  constructor(body: Uint8Array<ArrayBuffer>, boundary: string, stepBytes = STEP_BYTES) {
    this.#body = body;
    this.#stepBytes = stepBytes;
    this.#delimiter = ENCODER.encode(`\r\n--${boundary}`);
    const length = this.#delimiter.length;
    this.#shift = new Int32Array(256).fill(length);
    for (let i = 0; i < length - 1; i++) this.#shift[this.#delimiter[i]] = length - 1 - i;
  }

  /** Reads on; the form once it is whole, else null (call again). */
  step(): MultipartBody | null {
    if (this.#result !== undefined) return this.#result;
    const body = this.#body;
    if (!this.#started) {
      this.#started = true;
      // The first boundary line may open the body (no CR LF before it); what precedes one is a preamble.
      const opening = this.#delimiter.subarray(2);
      if (startsWith(body, 0, opening) && boundaryLineEnd(body, opening.length) >= 0) {
        return this.#afterBoundary(opening.length);
      }
    }
    const to = Math.min(body.length, this.#searchFrom + this.#stepBytes);
    for (let from = this.#searchFrom;;) {
      const found = this.#find(from, to);
      if (found < 0) break;
      const after = found + this.#delimiter.length;
      // Followed by anything but a line end or `--`, the delimiter's bytes are content (RFC 2046 5.1.1):
      // a short boundary (`b`) may well be found in a file.
      if (boundaryLineEnd(body, after) < 0) {
        from = found + 1;
        continue;
      }
      if (this.#part !== undefined) {
        this.#keep(this.#part.head, body.subarray(this.#part.contentStart, found));
      }
      return this.#afterBoundary(after);
    }
    if (to < body.length) {
      this.#searchFrom = to;
      return null;
    }
    throw unreadable(
      this.#part === undefined ? "no boundary line was found in it" : "it ends before its closing boundary",
    );
  }

  /** After a boundary: the form's end (`--`), or the next part's head. */
  #afterBoundary(at: number): MultipartBody | null {
    const body = this.#body;
    const lineEnd = boundaryLineEnd(body, at);
    if (lineEnd === CLOSED) {
      this.#result = { fields: this.#fields, files: this.#files };
      return this.#result;
    }
    if (++this.#parts > MAX_PARTS) throw unreadable(`it has more than ${MAX_PARTS} parts`);
    const headStart = lineEnd;
    const headEnd = startsWith(body, headStart, CRLF) ? headStart : headBlockEnd(body, headStart);
    const contentStart = headEnd + 2;
    this.#part = { contentStart, head: parseHead(body.subarray(headStart, headEnd)) };
    // The delimiter's CR LF may be the blank line's own when the content is empty.
    this.#searchFrom = headEnd;
    return null;
  }

  #keep(head: PartHead, content: Uint8Array<ArrayBuffer>): void {
    if (head.name === undefined) return;
    if (head.filename === undefined) {
      this.#fields[head.name] = UTF8.decode(content);
      return;
    }
    this.#files.push({
      field: head.name,
      filename: head.filename,
      contentType: head.contentType ?? "",
      data: content,
    });
  }

  /**
   * Where the delimiter starts, at or after `from` and before `to`, or -1: Horspool's skips, each window compared
   * from its start. The delimiter starts with the only CR it holds (a boundary has none), so two windows
   * that match more than their first byte never overlap, and the comparing is linear in the bytes
   * whatever they are (compared from the end, a body and boundary of one repeated letter took quadratic time).
   */
  #find(from: number, to: number): number {
    const body = this.#body;
    const delimiter = this.#delimiter;
    const last = delimiter.length - 1;
    const shift = this.#shift;
    const limit = Math.min(body.length, to + last);
    for (let end = from + last; end < limit; end += shift[body[end]]) {
      const start = end - last;
      if (body[start] !== CR) continue;
      let i = 1;
      while (i <= last && body[start + i] === delimiter[i]) i++;
      if (i > last) return start;
    }
    return -1;
  }
}

const CRLF = new Uint8Array([CR, LF]);
/** `boundaryLineEnd` of the closing boundary. */
const CLOSED = Number.MAX_SAFE_INTEGER;

/**
 * What follows a boundary at `at`: CLOSED for the closing `--`, where the next line starts when the line
 * ends (after optional spaces and tabs, RFC 2046's transport padding), else -1 (not a boundary).
 */
function boundaryLineEnd(body: Uint8Array, at: number): number {
  if (body[at] === DASH && body[at + 1] === DASH) return CLOSED;
  while (body[at] === 0x20 || body[at] === 0x09) at++;
  return body[at] === CR && body[at + 1] === LF ? at + 2 : -1;
}

/** What a part's head says: its field name, its filename when it is a file, its content type. */
interface PartHead {
  readonly name?: string;
  readonly filename?: string;
  readonly contentType?: string;
}

/** Where the blank line ending a head that starts at `start` starts (its CR LF CR LF's second CR LF). */
function headBlockEnd(body: Uint8Array, start: number): number {
  const limit = Math.min(body.length - 3, start + MAX_PART_HEAD_BYTES);
  // Searched within the head's limit only: a body with no CR after it would be searched to its end.
  const head = body.subarray(0, limit + 3);
  for (let at = head.indexOf(CR, start); at >= 0 && at < limit; at = head.indexOf(CR, at + 1)) {
    if (body[at + 1] === LF && body[at + 2] === CR && body[at + 3] === LF) return at + 2;
  }
  if (limit < body.length - 3) {
    throw unreadable(`a part's headers are longer than ${MAX_PART_HEAD_BYTES} bytes`);
  }
  throw unreadable("a part's headers do not end");
}

function parseHead(bytes: Uint8Array): PartHead {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of UTF8.decode(bytes).split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === "content-disposition") disposition = line.slice(colon + 1);
    else if (name === "content-type") contentType = line.slice(colon + 1).trim();
  }
  if (disposition === undefined) return {};
  const params = dispositionParams(disposition);
  const filename = params.get("filename*") ?? params.get("filename");
  return {
    ...(params.has("name") ? { name: params.get("name") } : {}),
    ...(filename === undefined ? {} : { filename }),
    ...(contentType === undefined || contentType === "" ? {} : { contentType }),
  };
}

/** `form-data; name="a"; filename="b.png"` → its parameters (values unquoted; `filename*` decoded). */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const param = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(param)) {
    const key = match[1].toLowerCase();
    const raw = match[2] === undefined ? match[3].trim() : match[2].replace(/\\(.)/g, "$1");
    if (key === "filename*") {
      const decoded = extendedValue(raw);
      if (decoded !== undefined) params.set(key, decoded);
    } else if (!params.has(key)) params.set(key, raw);
  }
  return params;
}

/** An RFC 8187 value (`UTF-8''a%20b.png`), or undefined when it is not one this reads. */
function extendedValue(raw: string): string | undefined {
  const match = /^utf-8'[^']*'(.*)$/i.exec(raw);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

function startsWith(body: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > body.length) return false;
  for (let i = 0; i < bytes.length; i++) if (body[at + i] !== bytes[i]) return false;
  return true;
}

function unreadable(why: string): GatewayError {
  return new GatewayError(400, "invalid_request", `The multipart body cannot be read: ${why}`);
}
