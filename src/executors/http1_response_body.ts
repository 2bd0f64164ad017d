import { concatBytes } from "../bytes.ts";
import type { Connection } from "./http1_connection.ts";
import { ChunkedDecoder, ChunkStep, Http1ProtocolError, type ResponseHead } from "./http1_wire.ts";
import { BodyTooLargeError, describeError, type UpstreamResponse } from "./upstream_response.ts";

const decoder = new TextDecoder();

/** A response body read from its connection by the head's framing. */
export class ResponseBody implements UpstreamResponse {
  readonly status: number;
  readonly #connection: Connection;
  readonly #head: ResponseHead;
  readonly #finish: () => void;
  readonly #signal: AbortSignal;
  /** Bytes left of a content-length body. */
  #remaining: number;
  #chunked: ChunkedDecoder | null;
  #ended = false;
  #done = false;

  constructor(connection: Connection, head: ResponseHead, finish: () => void, signal: AbortSignal) {
    this.status = head.status;
    this.#connection = connection;
    this.#head = head;
    this.#finish = finish;
    this.#signal = signal;
    this.#remaining = head.framing.kind === "length" ? head.framing.length : 0;
    this.#chunked = head.framing.kind === "chunked" ? new ChunkedDecoder() : null;
    this.#ended = head.framing.kind === "none" ||
      (head.framing.kind === "length" && head.framing.length === 0);
  }

  header(name: string): string | null {
    for (const [key, value] of this.#head.headers) if (key === name) return value;
    return null;
  }

  read(): Promise<Uint8Array | null> {
    if (this.#done) return Promise.resolve(null);
    // The connection goes back to the pool only on the read after the last bytes: until then the
    // caller may still hold a view into its buffer, which the next request would overwrite.
    if (this.#ended) {
      this.#done = true;
      this.#finish();
      return Promise.resolve(null);
    }
    return this.#next();
  }

  text(limit = Number.POSITIVE_INFINITY): Promise<string> {
    return this.#collect(limit, false);
  }

  answer(maxBytes: number): Promise<string> {
    return this.#collect(maxBytes, true);
  }

  /** The body up to `limit` bytes; past it the body is cut (`failOver` false) or a BodyTooLargeError. */
  async #collect(limit: number, failOver: boolean): Promise<string> {
    const connection = this.#connection;
    const declared = !this.#ended && !this.#done && this.#head.framing.kind === "length";
    if (declared && failOver && this.#remaining > limit) {
      // The declared length already says too much: nothing of it is read.
      this.#fail();
      throw new BodyTooLargeError(limit);
    }
    if (declared && this.#remaining <= limit && connection.end - connection.start >= this.#remaining) {
      // The usual JSON answer, already read with its head: decoded where it lies, nothing copied.
      const start = connection.start;
      connection.start += this.#remaining;
      const text = decoder.decode(connection.buffer.subarray(start, start + this.#remaining));
      this.#remaining = 0;
      this.#ended = this.#done = true;
      this.#finish();
      return text;
    }
    if (declared && this.#remaining <= limit) {
      // A longer answer: one exact-size array, filled from the buffer and then straight from the socket.
      const bytes = new Uint8Array(this.#remaining);
      const buffered = Math.min(this.#remaining, connection.end - connection.start);
      bytes.set(connection.buffer.subarray(connection.start, connection.start + buffered));
      connection.start += buffered;
      try {
        for (let filled = buffered; filled < bytes.length;) {
          const read = await connection.readInto(bytes.subarray(filled));
          if (read === null) throw new Http1ProtocolError("connection closed inside the response body");
          filled += read;
        }
      } catch (error) {
        this.#fail();
        if (this.#signal.aborted) throw this.#signal.reason;
        throw error;
      }
      this.#remaining = 0;
      this.#ended = this.#done = true;
      this.#finish();
      return decoder.decode(bytes);
    }
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let chunk = await this.read(); chunk !== null; chunk = await this.read()) {
      if (failOver && total + chunk.length > limit) {
        this.cancel();
        throw new BodyTooLargeError(limit);
      }
      parts.push(chunk.slice(0, Math.min(chunk.length, limit - total)));
      total += parts[parts.length - 1].length;
      if (total >= limit) {
        this.cancel();
        break;
      }
    }
    return decoder.decode(concatBytes(parts, total));
  }

  cancel(): void {
    if (this.#done) return;
    this.#fail();
  }

  /** Ends the body without reuse: the connection's remaining bytes are unknown. */
  #fail(): void {
    this.#done = true;
    this.#connection.close();
    this.#finish();
  }

  /** Reads the next bytes by the body's framing; a failure ends the body and closes the connection. */
  async #next(): Promise<Uint8Array | null> {
    try {
      const connection = this.#connection;
      const framing = this.#head.framing.kind;
      for (;;) {
        if (framing === "chunked") {
          const decoder = this.#chunked!;
          const step = decoder.step(connection.buffer, connection.start, connection.end);
          connection.start += decoder.consumed;
          if (step === ChunkStep.Data) {
            return connection.buffer.subarray(decoder.dataStart, decoder.dataStart + decoder.dataLength);
          }
          if (step === ChunkStep.Done) {
            this.#ended = true;
            return this.read();
          }
        } else if (connection.start < connection.end) {
          const length = framing === "length"
            ? Math.min(this.#remaining, connection.end - connection.start)
            : connection.end - connection.start;
          const chunk = connection.buffer.subarray(connection.start, connection.start + length);
          connection.start += length;
          if (framing === "length") {
            this.#remaining -= length;
            if (this.#remaining === 0) this.#ended = true;
          }
          return chunk;
        }
        if (!await connection.fill()) {
          if (framing === "close") {
            this.#ended = true;
            return this.read();
          }
          throw new Http1ProtocolError("connection closed inside the response body");
        }
      }
    } catch (error) {
      this.#fail();
      if (this.#signal.aborted) throw this.#signal.reason;
      throw error instanceof Http1ProtocolError ? error : new Error(describeError(error), { cause: error });
    }
  }
}
