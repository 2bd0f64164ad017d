import { concatBytes } from "../../src/bytes.ts";
import {
  ChunkedDecoder,
  ChunkStep,
  findHeadEnd,
  Http1ProtocolError,
  parseResponseHead,
} from "../../src/executors/http1_wire.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("findHeadEnd finds the blank line after CRLF or bare LF lines and waits for an incomplete head", () => {
  const crlf = bytes("HTTP/1.1 200 OK\r\na: b\r\n\r\nbody");
  assertEquals(findHeadEnd(crlf, 0, crlf.length), crlf.length - 4);
  const lf = bytes("HTTP/1.1 200 OK\na: b\n\nbody");
  assertEquals(findHeadEnd(lf, 0, lf.length), lf.length - 4);
  const partial = bytes("HTTP/1.1 200 OK\r\na: b\r\n\r");
  assertEquals(findHeadEnd(partial, 0, partial.length), -1);
  // The window's end is respected even when the buffer holds more.
  assertEquals(findHeadEnd(crlf, 0, crlf.length - 6), -1);
});

Deno.test("findHeadEnd looks only inside its window, whatever the buffer holds around it (1000 random cases)", () => {
  const next = random(11);
  // A reference over the window's text: the first "\n\n" or "\n\r\n", just past it.
  const reference = (buffer: Uint8Array, from: number, end: number) => {
    const text = String.fromCharCode(...buffer.subarray(from, end));
    const ends = [text.indexOf("\n\n"), text.indexOf("\n\r\n")].map((at, i) =>
      at < 0 ? Infinity : at + 2 + i
    );
    const first = Math.min(...ends);
    return first === Infinity ? -1 : from + first;
  };
  const pieces = ["HTTP/1.1 200 OK", "\r\n", "\n", "\r", "a: b", "\r\n\r\n", "\n\n", "x"];
  for (let i = 0; i < 1000; i++) {
    // Stale bytes before and after the window, as a connection's reused read buffer holds them.
    const text = Array.from(
      { length: 1 + Math.floor(next() * 12) },
      () => pieces[Math.floor(next() * pieces.length)],
    )
      .join("");
    const buffer = bytes(text);
    const from = Math.floor(next() * buffer.length);
    const end = from + Math.floor(next() * (buffer.length - from + 1));
    assertEquals(
      findHeadEnd(buffer, from, end),
      reference(buffer, from, end),
      `case ${i}: ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("parseResponseHead: status, lower-cased headers in order, and how the body ends", () => {
  const head = parseResponseHead(
    "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 7\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 12\r\n\r\n",
  );
  assertEquals(head.status, 429);
  assertEquals(head.headers, [
    ["content-type", "application/json"],
    ["retry-after", "7"],
    ["x-a", "1"],
    ["x-a", "2"],
    ["content-length", "12"],
  ]);
  assertEquals(head.framing, { kind: "length", length: 12 });
  assertEquals(head.keepAlive, true);
  assertEquals(head.idleTimeoutSeconds, null);

  const framing = (text: string) => parseResponseHead(`${text}\r\n\r\n`).framing;
  assertEquals(framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"), { kind: "chunked" });
  // Chunked wins over a length sent alongside it (RFC 9112 §6.3).
  assertEquals(framing("HTTP/1.1 200 OK\r\ncontent-length: 5\r\ntransfer-encoding: chunked"), {
    kind: "chunked",
  });
  assertEquals(framing("HTTP/1.1 200 OK\r\ncontent-length: 5, 5"), { kind: "length", length: 5 });
  assertEquals(framing("HTTP/1.1 200 OK"), { kind: "close" });
  assertEquals(framing("HTTP/1.1 204 No Content"), { kind: "none" });
  assertEquals(framing("HTTP/1.1 304 Not Modified\r\ncontent-length: 50"), { kind: "none" });
  assertEquals(framing("HTTP/1.1 100 Continue"), { kind: "none" });
  // A transfer coding other than chunked last: the body runs to the close.
  assertEquals(framing("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip"), { kind: "close" });
});

Deno.test("parseResponseHead: keep-alive by version and Connection, and the server's idle timeout", () => {
  const head = (text: string) => parseResponseHead(`${text}\r\ncontent-length: 0\r\n\r\n`);
  assertEquals(head("HTTP/1.1 200 OK").keepAlive, true);
  assertEquals(head("HTTP/1.1 200 OK\r\nConnection: close").keepAlive, false);
  assertEquals(head("HTTP/1.1 200 OK\r\nConnection: upgrade, Close").keepAlive, false);
  assertEquals(head("HTTP/1.0 200 OK").keepAlive, false);
  assertEquals(head("HTTP/1.0 200 OK\r\nConnection: keep-alive").keepAlive, true);
  assertEquals(head("HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100").idleTimeoutSeconds, 5);
  // A body that ends with the close cannot leave the connection reusable.
  assertEquals(parseResponseHead("HTTP/1.1 200 OK\r\n\r\n").keepAlive, false);
});

Deno.test("parseResponseHead refuses what is not HTTP/1.x or frames the body ambiguously", () => {
  for (
    const text of [
      "SSH-2.0-OpenSSH\r\n\r\n",
      "<html>\r\n\r\n",
      "HTTP/2 200\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: 5, 6\r\n\r\n",
      "HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
      "HTTP/1.1 200 OK\r\na: b\r\n  folded\r\n\r\n",
    ]
  ) {
    let refused = false;
    try {
      parseResponseHead(text);
    } catch (error) {
      refused = error instanceof Http1ProtocolError;
    }
    assert(refused, `accepted ${JSON.stringify(text)}`);
  }
});

/** A deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** Encodes `body` as chunks of random sizes, with extensions and trailers sometimes. */
function encodeChunked(body: Uint8Array, next: () => number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < body.length;) {
    const size = Math.min(body.length - at, 1 + Math.floor(next() * 300));
    const extension = next() < 0.2 ? ";name=value" : "";
    const hex = next() < 0.5 ? size.toString(16) : size.toString(16).toUpperCase();
    parts.push(bytes(`${hex}${extension}\r\n`), body.subarray(at, at + size), bytes("\r\n"));
    at += size;
  }
  parts.push(bytes(next() < 0.3 ? "0\r\nx-trailer: 1\r\n\r\n" : "0\r\n\r\n"));
  return concatBytes(parts);
}

/** Feeds `wire` to a decoder in random-sized arrivals through a window, as the pool's buffer does. */
function decodeInPieces(wire: Uint8Array, next: () => number): { body: number[]; leftover: number } {
  const decoder = new ChunkedDecoder();
  const body: number[] = [];
  let start = 0;
  let end = 0;
  for (;;) {
    const step = decoder.step(wire, start, end);
    start += decoder.consumed;
    if (step === ChunkStep.Data) {
      body.push(...wire.subarray(decoder.dataStart, decoder.dataStart + decoder.dataLength));
      continue;
    }
    if (step === ChunkStep.Done) return { body, leftover: end - start };
    if (end === wire.length) throw new Error("decoder wanted more than the wire holds");
    end = Math.min(wire.length, end + 1 + Math.floor(next() * (next() < 0.5 ? 4 : 200)));
  }
}

Deno.test("ChunkedDecoder decodes bodies split at every kind of boundary (2000 random cases)", () => {
  const next = random(7);
  for (let i = 0; i < 2000; i++) {
    const body = Uint8Array.from({ length: Math.floor(next() * 2000) }, () => Math.floor(next() * 256));
    const wire = encodeChunked(body, next);
    const decoded = decodeInPieces(wire, next);
    assertEquals(decoded.leftover, 0, `case ${i}`);
    assert(decoded.body.length === body.length && decoded.body.every((b, j) => b === body[j]), `case ${i}`);
  }
});

Deno.test("ChunkedDecoder refuses bad sizes, overlong chunks and endless lines", () => {
  const decode = (text: string) => decodeInPieces(bytes(text), random(1));
  assertThrows(() => decode("zz\r\nabc\r\n0\r\n\r\n"), Http1ProtocolError);
  assertThrows(() => decode("\r\n0\r\n\r\n"), Http1ProtocolError);
  assertThrows(() => decode("3\r\nabcdef\r\n0\r\n\r\n"), Http1ProtocolError, "longer than its declared size");
  assertThrows(() => decode("fffffffffffff\r\n"), Http1ProtocolError, "too large");
  assertThrows(() => decode("1".repeat(10_000)), Http1ProtocolError, "too long");
  // Bare LF line ends are accepted.
  assertEquals(decode("3\nabc\n0\n\n").body, [...bytes("abc")]);
});
