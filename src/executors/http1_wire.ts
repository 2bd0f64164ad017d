/**
 * The parts of HTTP/1.1 response framing the upstream client needs (RFC 9112): finding and parsing a
 * response head, deciding how its body is delimited, and decoding a chunked body. Pure: bytes in,
 * decisions out; the sockets live in http1_pool.ts.
 */

/** A response the client cannot read as HTTP/1.1 (a broken or hostile upstream). */
export class Http1ProtocolError extends Error {}

/** How a response body ends. */
export type BodyFraming =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" }
  /** Read until the server closes the connection (which then cannot be reused). */
  | { readonly kind: "close" };

export interface ResponseHead {
  readonly status: number;
  /** Header names lower-cased, in arrival order; a repeated name appears once per line. */
  readonly headers: readonly (readonly [string, string])[];
  readonly framing: BodyFraming;
  /** True when the connection may carry another request after this body. */
  readonly keepAlive: boolean;
  /** Seconds the server keeps an idle connection open (`Keep-Alive: timeout=N`), or null when unsaid. */
  readonly idleTimeoutSeconds: number | null;
}

/** Longest response head accepted; real upstreams send a few hundred bytes to a few KB. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** Index just past the blank line ending a head in `bytes[from, end)`, or -1 while it is incomplete. */
export function findHeadEnd(bytes: Uint8Array, from: number, end: number): number {
  for (let i = nextLf(bytes, from, end); i !== -1; i = nextLf(bytes, i + 1, end)) {
    // "\n\n" or "\r\n\r\n" (RFC 9112 lets a recipient accept a bare LF as a line end).
    if (i + 1 < end && bytes[i + 1] === 10) return i + 2;
    if (i + 2 < end && bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

/**
 * Index of the first LF in `bytes[from, end)`, or -1. Never past `end`: a connection's read buffer is
 * 16 KB or more and mostly stale or empty beyond what was received, and `Uint8Array.indexOf` searches to
 * the buffer's end, which cost 4.5 µs per search (a head or a chunk line is a few hundred bytes).
 */
function nextLf(bytes: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) if (bytes[i] === 10) return i;
  return -1;
}

/** Parses a response head (the text up to and including its blank line). */
export function parseResponseHead(text: string): ResponseHead {
  const lines = text.split("\n");
  const statusLine = lines[0].replace(/\r$/, "");
  const match = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(statusLine);
  if (match === null) {
    throw new Http1ProtocolError(`not an HTTP/1.1 response: ${JSON.stringify(statusLine.slice(0, 80))}`);
  }
  const http10 = match[1] === "0";
  const status = Number(match[2]);
  const headers: [string, string][] = [];
  let contentLength: number | null = null;
  let chunked = false;
  let connection = "";
  let keepAliveHeader = "";
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0 || line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) {
      throw new Http1ProtocolError(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
    }
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.push([name, value]);
    if (name === "content-length") {
      // Repeated lengths must agree (RFC 9112 §6.3); a list of equal values counts as one.
      const lengths = new Set(value.split(",").map((part) => part.trim()));
      if (lengths.size !== 1) throw new Http1ProtocolError(`conflicting content-length: ${value}`);
      const [only] = lengths;
      if (!/^\d{1,15}$/.test(only)) throw new Http1ProtocolError(`bad content-length: ${value}`);
      const length = Number(only);
      if (contentLength !== null && contentLength !== length) {
        throw new Http1ProtocolError("conflicting content-length headers");
      }
      contentLength = length;
    } else if (name === "transfer-encoding") {
      const codings = value.toLowerCase().split(",").map((part) => part.trim());
      chunked = codings[codings.length - 1] === "chunked";
      if (!chunked) connection = "close"; // a body delimited by the close, whatever the length says
    } else if (name === "connection") {
      connection += `${value.toLowerCase()},`;
    } else if (name === "keep-alive") {
      keepAliveHeader = value;
    }
  }
  const closes = /(?:^|,)\s*close\s*(?:,|$)/.test(connection);
  const keepAlive = http10 ? /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection) && !closes : !closes;
  let framing: BodyFraming;
  if ((status >= 100 && status < 200) || status === 204 || status === 304) framing = { kind: "none" };
  else if (chunked) framing = { kind: "chunked" };
  else if (contentLength !== null && connection !== "close") {
    framing = { kind: "length", length: contentLength };
  } else framing = { kind: "close" };
  const timeout = /(?:^|,)\s*timeout\s*=\s*(\d+)/i.exec(keepAliveHeader);
  return {
    status,
    headers,
    framing,
    keepAlive: keepAlive && framing.kind !== "close",
    idleTimeoutSeconds: timeout ? Number(timeout[1]) : null,
  };
}

/** What one ChunkedDecoder step found. */
export const ChunkStep = {
  /** More bytes are needed before anything can be decoded. */
  NeedMore: 0,
  /** Body bytes at `dataStart`, `dataLength` long. */
  Data: 1,
  /** The body (and its trailers) ended. */
  Done: 2,
} as const;
export type ChunkStep = typeof ChunkStep[keyof typeof ChunkStep];

/** Longest chunk-size or trailer line accepted. */
const MAX_LINE_BYTES = 8 * 1024;

/**
 * Decodes a chunked body incrementally over a byte window the caller refills. Each `step` consumes
 * `consumed` bytes from the window's start; data is handed out as a position in the caller's buffer
 * (no copy), as much of the current chunk as the window holds.
 */
export class ChunkedDecoder {
  #state: "size" | "data" | "data-end" | "trailer" | "done" = "size";
  #remaining = 0;
  consumed = 0;
  dataStart = 0;
  dataLength = 0;

  step(bytes: Uint8Array, pos: number, end: number): ChunkStep {
    this.consumed = 0;
    let at = pos;
    for (;;) {
      switch (this.#state) {
        case "size": {
          const lf = lineEnd(bytes, at, end);
          if (lf === -1) return this.#needMore(at, pos);
          this.#remaining = parseChunkSize(bytes, at, lf);
          at = lf + 1;
          this.#state = this.#remaining === 0 ? "trailer" : "data";
          break;
        }
        case "data": {
          if (at === end) return this.#needMore(at, pos);
          const length = Math.min(this.#remaining, end - at);
          this.#remaining -= length;
          if (this.#remaining === 0) this.#state = "data-end";
          this.dataStart = at;
          this.dataLength = length;
          this.consumed = at + length - pos;
          return ChunkStep.Data;
        }
        case "data-end": {
          const lf = lineEnd(bytes, at, end);
          if (lf === -1) return this.#needMore(at, pos);
          if (lf !== at && !(lf === at + 1 && bytes[at] === 13)) {
            throw new Http1ProtocolError("chunk data longer than its declared size");
          }
          at = lf + 1;
          this.#state = "size";
          break;
        }
        case "trailer": {
          const lf = lineEnd(bytes, at, end);
          if (lf === -1) return this.#needMore(at, pos);
          const empty = lf === at || (lf === at + 1 && bytes[at] === 13);
          at = lf + 1;
          if (empty) {
            this.#state = "done";
            this.consumed = at - pos;
            return ChunkStep.Done;
          }
          break;
        }
        case "done":
          return ChunkStep.Done;
      }
    }
  }

  #needMore(at: number, pos: number): ChunkStep {
    this.consumed = at - pos;
    return ChunkStep.NeedMore;
  }
}

/** Index of the next LF in `bytes[from, end)`, -1 if none yet; throws when a line runs too long. */
function lineEnd(bytes: Uint8Array, from: number, end: number): number {
  const lf = nextLf(bytes, from, end);
  if (lf !== -1) return lf;
  if (end - from > MAX_LINE_BYTES) throw new Http1ProtocolError("chunk line too long");
  return -1;
}

/** The hex size at the start of a chunk-size line (extensions after ';' ignored). */
function parseChunkSize(bytes: Uint8Array, from: number, lf: number): number {
  let size = 0;
  let digits = 0;
  for (let i = from; i < lf; i++) {
    const c = bytes[i];
    const digit = c >= 48 && c <= 57
      ? c - 48
      : c >= 97 && c <= 102
      ? c - 87
      : c >= 65 && c <= 70
      ? c - 55
      : -1;
    if (digit === -1) {
      if (c === 59 || c === 13 || c === 32 || c === 9) break; // ';' extension, CR, whitespace before it
      throw new Http1ProtocolError("bad chunk size");
    }
    if (++digits > 12) throw new Http1ProtocolError("chunk size too large");
    size = size * 16 + digit;
  }
  if (digits === 0) throw new Http1ProtocolError("bad chunk size");
  return size;
}
