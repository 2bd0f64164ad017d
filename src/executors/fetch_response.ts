import { BodyTooLargeError, type UpstreamResponse } from "./upstream_response.ts";

/** A fetch Response seen as an upstream response (the path for URLs behind an outbound proxy). */
export function fetchResponse(response: Response): UpstreamResponse {
  let reader: ChunkReader | null = null;
  const body = () => response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    read: () => (reader ??= chunkReader(body())).read(),
    text: (limit = Number.POSITIVE_INFINITY) =>
      limit === Number.POSITIVE_INFINITY ? response.text() : readLimited(body(), limit, false),
    answer: (maxBytes) => {
      const declared = Number(response.headers.get("content-length") ?? NaN);
      if (declared > maxBytes) {
        body().cancel().catch(() => {});
        return Promise.reject(new BodyTooLargeError(maxBytes));
      }
      return readLimited(body(), maxBytes, true);
    },
    cancel: () => {
      (reader ?? body()).cancel().catch(() => {});
    },
  };
}

interface ChunkReader {
  read(): Promise<Uint8Array | null>;
  cancel(reason?: unknown): Promise<void>;
}

/** Bytes read per chunk from a streamed body. */
const CHUNK_BUFFER_BYTES = 16 * 1024;

/**
 * Reads a body chunk by chunk into one reused buffer when the stream allows it (a byte stream, as
 * fetch bodies are): the default reader allocates and zeroes a fresh 64 KiB buffer for every chunk,
 * which made reading cost about twice as much per chunk of a token stream.
 */
function chunkReader(stream: ReadableStream<Uint8Array>): ChunkReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    const reader = stream.getReader();
    return {
      read: async () => {
        const next = await reader.read();
        return next.done ? null : next.value;
      },
      cancel: (reason) => reader.cancel(reason),
    };
  }
  let buffer = new Uint8Array(CHUNK_BUFFER_BYTES);
  return {
    async read() {
      const next = await byob.read(buffer);
      if (next.done || next.value === undefined) return null;
      // The read transferred the buffer into `next.value`; the same memory serves the next read.
      buffer = new Uint8Array(next.value.buffer);
      return next.value;
    },
    cancel: (reason) => byob.cancel(reason),
  };
}

/** Up to `limit` bytes of a body as text; past it the body is cut (`failOver` false) or a BodyTooLargeError. */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  failOver: boolean,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  while (bytes < limit || failOver) {
    const next = await reader.read();
    if (next.done) return text + decoder.decode();
    bytes += next.value.length;
    if (failOver && bytes > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    text += decoder.decode(next.value, { stream: true });
  }
  await reader.cancel();
  return text.slice(0, limit);
}
