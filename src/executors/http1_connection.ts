import { findHeadEnd, Http1ProtocolError, parseResponseHead, type ResponseHead } from "./http1_wire.ts";

const READ_BUFFER_BYTES = 16 * 1024;
const decoder = new TextDecoder();

/** One connection and its read buffer; `buffer[start, end)` holds bytes received but not consumed. */
export class Connection {
  buffer = new Uint8Array(READ_BUFFER_BYTES);
  start = 0;
  end = 0;
  /** True once any byte of the current response arrived. */
  received = false;
  idleUntil = 0;
  closed = false;
  readonly #conn: Deno.Conn;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  async writeAll(bytes: Uint8Array): Promise<void> {
    for (let written = 0; written < bytes.length;) written += await this.#conn.write(bytes.subarray(written));
  }

  /** Reads more bytes after `end`, making room first; false when the peer closed. */
  async fill(): Promise<boolean> {
    if (this.start === this.end) {
      this.start = this.end = 0;
    } else if (this.end === this.buffer.length) {
      if (this.start > 0) {
        this.buffer.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      } else {
        const larger = new Uint8Array(this.buffer.length * 2);
        larger.set(this.buffer);
        this.buffer = larger;
      }
    }
    const read = await this.#conn.read(this.buffer.subarray(this.end));
    if (read === null) return false;
    this.end += read;
    this.received = true;
    return true;
  }

  /** Reads into `target` directly (a body larger than what is buffered); null when the peer closed. */
  readInto(target: Uint8Array): Promise<number | null> {
    return this.#conn.read(target);
  }

  /**
   * Reads a response head, skipping interim (1xx) responses. A head longer than `maxHeadBytes` is a
   * protocol error: a hostile upstream could otherwise grow the buffer without end. Each read is searched
   * once (from just before where the last search stopped), not the whole head again.
   */
  async readHead(maxHeadBytes: number): Promise<ResponseHead> {
    let searched = 0;
    for (;;) {
      const headEnd = findHeadEnd(this.buffer, this.start + searched, this.end);
      if (headEnd !== -1) {
        const head = parseResponseHead(decoder.decode(this.buffer.subarray(this.start, headEnd)));
        this.start = headEnd;
        searched = 0;
        if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
        return head;
      }
      // A blank line may straddle two reads: search again from its longest possible start ("\r\n\r").
      searched = Math.max(0, this.end - this.start - 3);
      if (this.end - this.start >= maxHeadBytes) {
        throw new Http1ProtocolError(
          `the upstream's response head is larger than ${maxHeadBytes} bytes (limits.max_header_bytes)`,
        );
      }
      if (!await this.fill()) {
        throw new Http1ProtocolError(
          this.end > this.start
            ? "connection closed inside the response head"
            : "connection closed before a response",
        );
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeQuietly(this.#conn);
  }
}

/** Closes a connection that may already be gone (reset by the peer, or taken over by a failed TLS start). */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Nothing left to close.
  }
}
