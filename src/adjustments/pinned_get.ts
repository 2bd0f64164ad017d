/**
 * An HTTP/1.1 GET over a connection to one given IP address: the address the caller has checked, not
 * whatever a second DNS lookup returns (a host name that resolves to a public address for the check
 * and to a private one for the fetch — DNS rebinding — cannot slip through). TLS still verifies the
 * certificate against the URL's host name. `fetch` has no way to pin the address of an https URL,
 * hence the small client; the response framing is the upstream client's (http1_wire.ts).
 */
import { concatBytes } from "../bytes.ts";
import {
  ChunkedDecoder,
  ChunkStep,
  findHeadEnd,
  Http1ProtocolError,
  MAX_HEAD_BYTES,
  parseResponseHead,
  type ResponseHead,
} from "../executors/http1_wire.ts";

/** Options of one pinned GET. */
export interface PinnedGetOptions {
  /** Aborts the connection (and the body being read). */
  readonly signal: AbortSignal;
  /** Extra trust roots for https (tests). */
  readonly caCerts?: string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Reads from a connection with a carry-over buffer: bytes read past a head belong to the body. */
class ConnReader {
  #buf: Uint8Array = new Uint8Array(0);
  readonly #conn: Deno.Conn;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  /** Bytes buffered but not consumed. */
  get buffered(): Uint8Array {
    return this.#buf;
  }

  /** Drops the first `n` buffered bytes. */
  consume(n: number): void {
    this.#buf = this.#buf.subarray(n);
  }

  /** Reads more bytes into the buffer; false at the end of the stream. */
  async fill(): Promise<boolean> {
    const chunk = new Uint8Array(16 * 1024);
    const n = await this.#conn.read(chunk);
    if (n === null) return false;
    this.#buf = this.#buf.length === 0
      ? chunk.subarray(0, n)
      : concatBytes([this.#buf, chunk.subarray(0, n)]);
    return true;
  }
}

async function readHead(reader: ConnReader): Promise<ResponseHead> {
  for (;;) {
    const buf = reader.buffered;
    const end = findHeadEnd(buf, 0, Math.min(buf.length, MAX_HEAD_BYTES));
    if (end !== -1) {
      const head = parseResponseHead(decoder.decode(buf.subarray(0, end)));
      reader.consume(end);
      // Interim answers (103 Early Hints) come before the real one.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      return head;
    }
    if (buf.length >= MAX_HEAD_BYTES) throw new Http1ProtocolError("response head too large");
    if (!(await reader.fill())) throw new Http1ProtocolError("connection closed before a response");
  }
}

/** The body bytes of a response as a stream, decoded from its framing; closing it closes the connection. */
function bodyStream(reader: ConnReader, head: ResponseHead, close: () => void): ReadableStream<Uint8Array> {
  const framing = head.framing;
  let remaining = framing.kind === "length" ? framing.length : Infinity;
  const chunked = new ChunkedDecoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const buf = reader.buffered;
          if (framing.kind === "chunked") {
            const step = chunked.step(buf, 0, buf.length);
            if (step === ChunkStep.Data) {
              const data = buf.slice(chunked.dataStart, chunked.dataStart + chunked.dataLength);
              reader.consume(chunked.consumed);
              controller.enqueue(data);
              return;
            }
            reader.consume(chunked.consumed);
            if (step === ChunkStep.Done) break;
          } else if (remaining === 0 || framing.kind === "none") {
            break;
          } else if (buf.length > 0) {
            const take = Math.min(buf.length, remaining);
            remaining -= take;
            controller.enqueue(buf.slice(0, take));
            reader.consume(take);
            return;
          }
          if (!(await reader.fill())) {
            if (framing.kind === "close") break;
            throw new Http1ProtocolError("connection closed before the end of the body");
          }
        }
        close();
        controller.close();
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel: close,
  });
}

/**
 * What a pinned GET answers: the parts of a fetch Response the image prefetch reads (a Response fits it,
 * so tests can answer with one). Not a Response itself: only `src/http` builds those.
 */
export interface PinnedResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Streams as it is read; null when the answer has no body. */
  readonly body: ReadableStream<Uint8Array> | null;
}

/** GETs `url` over a connection to `address` (an IP literal); the answer's body streams. */
export async function pinnedGet(
  url: URL,
  address: string,
  options: PinnedGetOptions,
): Promise<PinnedResponse> {
  const tls = url.protocol === "https:";
  const port = Number(url.port || (tls ? 443 : 80));
  const tcp = await Deno.connect({ hostname: address, port, signal: options.signal });
  let conn: Deno.Conn = tcp;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    options.signal.removeEventListener("abort", close);
    try {
      conn.close();
    } catch {
      // Already closed by the peer or by TLS teardown.
    }
  };
  options.signal.addEventListener("abort", close, { once: true });
  try {
    if (tls) {
      const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
      conn = await Deno.startTls(tcp, { hostname, caCerts: options.caCerts });
    }
    const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      "Accept: image/*\r\nAccept-Encoding: identity\r\nConnection: close\r\n" +
      "User-Agent: gateway-image-prefetch\r\n\r\n";
    const bytes = encoder.encode(request);
    for (let written = 0; written < bytes.length;) written += await conn.write(bytes.subarray(written));
    const reader = new ConnReader(conn);
    const head = await readHead(reader);
    if (head.status < 200 || head.status > 599) {
      throw new Http1ProtocolError(`unexpected status ${head.status}`);
    }
    const noBody = head.framing.kind === "none" || head.status === 204 || head.status === 304;
    if (noBody) close();
    return {
      status: head.status,
      headers: new Headers(head.headers as [string, string][]),
      body: noBody ? null : bodyStream(reader, head, close),
    };
  } catch (error) {
    close();
    throw options.signal.aborted ? options.signal.reason : error;
  }
}
