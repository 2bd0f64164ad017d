/** An upstream answer whose body is still on the connection (the gateway's HTTP/1.1 client or fetch). */
export interface UpstreamResponse {
  readonly status: number;
  /** A response header by lower-case name (the first when repeated), or null. */
  header(name: string): string | null;
  /** The next body bytes (valid until the next call), or null at the end of the body. */
  read(): Promise<Uint8Array | null>;
  /** The rest of the body as text; past `limit` bytes the rest is dropped with the connection. */
  text(limit?: number): Promise<string>;
  /**
   * The whole body as text, or a BodyTooLargeError once it is known to exceed `maxBytes`: reading
   * stops there and the connection is closed, so a huge answer never sits in memory.
   */
  answer(maxBytes: number): Promise<string>;
  /** Abandons the body (the connection is closed, never reused). */
  cancel(): void;
}

/** An upstream body larger than the gateway reads (`limits.max_answer_bytes`). */
export class BodyTooLargeError extends Error {
  /** `limit` is the cap in bytes that the body exceeded. */
  constructor(readonly limit: number) {
    super(
      `The upstream answer is larger than ${limit} bytes (limits.max_answer_bytes); ` +
        `the gateway stopped reading it`,
    );
  }
}

/** The first line of an error's message, at most 300 characters (one log line, no stack). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 300);
}
