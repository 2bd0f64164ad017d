import { upstreamWatchdog } from "./deadline_watchdog.ts";
import type { ProviderClient } from "./http_clients.ts";

/** What came back from an upstream before any body byte was read. */
export type UpstreamOutcome =
  | {
    readonly kind: "response";
    readonly status: number;
    readonly headers: Headers;
    /**
     * Reads the whole body as text (at most `limit` characters) and frees the connection slot. Use this or
     * `body()`, once.
     */
    readonly readText: (limit?: number) => Promise<string>;
    /** The body chunk by chunk, guarded by the idle timeout; reading it to the end or cancelling it frees the slot. */
    readonly body: () => UpstreamBody;
    /** True once the client left and the call was aborted for it (a cut body is then not the upstream's fault). */
    readonly clientGone: () => boolean;
  }
  | { readonly kind: "network"; readonly reason: "timeout" | "connection"; readonly message: string }
  /** The client left before the upstream answered; the call was aborted. */
  | { readonly kind: "cancelled" };

/** An upstream body read chunk by chunk. */
export interface UpstreamBody {
  /**
   * The next chunk, or null at the end; rejects when the body breaks or stays silent too long. A chunk
   * is only valid until the next read (its memory is reused).
   */
  read(): Promise<Uint8Array | null>;
  /** Stops reading and aborts the call. */
  cancel(reason?: unknown): void;
}

/** One upstream HTTP call. */
export interface UpstreamRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly client: ProviderClient;
  /**
   * The client connection's signal, aborted when the client disconnects. Asked for only once a call has
   * run for CLIENT_WATCH_AFTER_MS: watching a connection has a cost per request that quick calls need
   * not pay.
   */
  readonly clientSignal: () => AbortSignal;
  /** Longest wait for response headers. */
  readonly headersTimeoutMs: number;
  /** Longest silence between body chunks once the response started. */
  readonly idleTimeoutMs: number;
}

/** How long a call runs before the client connection is watched for a disconnect. */
export const CLIENT_WATCH_AFTER_MS = 100;

/**
 * POSTs to the upstream through the provider's client. Network failures and timeouts come back as
 * values (they are routing facts, not exceptions); a client disconnect aborts the call and its body.
 */
export async function callUpstream(request: UpstreamRequest): Promise<UpstreamOutcome> {
  const slot = request.client.acquire();
  const release = typeof slot === "function" ? slot : await slot;
  const controller = new AbortController();
  const onClientAbort = () => controller.abort(new DOMException("client disconnected", "AbortError"));
  let clientSignal: AbortSignal | null = null;
  const watchClient = () => {
    clientSignal = request.clientSignal();
    if (clientSignal.aborted) onClientAbort();
    else clientSignal.addEventListener("abort", onClientAbort, { once: true });
  };
  let timedOut = false;
  const deadline = upstreamWatchdog.watch(Date.now() + request.headersTimeoutMs, () => {
    timedOut = true;
    controller.abort(new DOMException("upstream timeout", "TimeoutError"));
    done();
  }, { afterMs: CLIENT_WATCH_AFTER_MS, run: watchClient });
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    upstreamWatchdog.unwatch(deadline);
    clientSignal?.removeEventListener("abort", onClientAbort);
    release();
  };
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      client: request.client.client,
      signal: controller.signal,
    });
  } catch (error) {
    done();
    if (controller.signal.aborted && !timedOut) return { kind: "cancelled" };
    return timedOut
      ? {
        kind: "network",
        reason: "timeout",
        message: `no response within ${request.headersTimeoutMs / 1000}s`,
      }
      : { kind: "network", reason: "connection", message: connectionMessage(error) };
  }
  // The body stream is only made when asked for: whole reads go through response.text().
  const bodyStream = () => response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  deadline.deadline = Date.now() + request.idleTimeoutMs;
  return {
    kind: "response",
    status: response.status,
    headers: response.headers,
    readText: async (limit = Number.POSITIVE_INFINITY) => {
      try {
        // The whole body in one native read (faster than a reader loop).
        return limit === Number.POSITIVE_INFINITY
          ? await response.text()
          : await readLimited(bodyStream(), limit);
      } catch (error) {
        return `(body unreadable: ${(error as Error).message})`;
      } finally {
        done();
      }
    },
    clientGone: () => controller.signal.aborted && !timedOut,
    body: () => {
      const reader = chunkReader(bodyStream());
      return {
        async read() {
          try {
            const chunk = await reader.read();
            if (chunk === null) {
              done();
              return null;
            }
            // Each chunk pushes the idle deadline back (a plain assignment; the watchdog does the rest).
            deadline.deadline = Date.now() + request.idleTimeoutMs;
            return chunk;
          } catch (error) {
            done();
            if (timedOut) throw new Error(`no data for ${request.idleTimeoutMs / 1000}s`, { cause: error });
            throw error;
          }
        },
        cancel(reason) {
          controller.abort(reason);
          reader.cancel(reason).catch(() => {});
          done();
        },
      };
    },
  };
}

/** Bytes read per chunk from a streamed body. */
const CHUNK_BUFFER_BYTES = 16 * 1024;

/**
 * Reads a body chunk by chunk into one reused buffer when the stream allows it (a byte stream, as
 * fetch bodies are): the default reader allocates and zeroes a fresh 64 KiB buffer for every chunk,
 * which made reading cost about twice as much per chunk of a token stream.
 */
function chunkReader(stream: ReadableStream<Uint8Array>): {
  read(): Promise<Uint8Array | null>;
  cancel(reason?: unknown): Promise<void>;
} {
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

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < limit) {
      const next = await reader.read();
      if (next.done) return text + decoder.decode();
      text += decoder.decode(next.value, { stream: true });
    }
    await reader.cancel();
    return text.slice(0, limit);
  } catch (error) {
    return text || `(body unreadable: ${(error as Error).message})`;
  }
}

function connectionMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 300);
}
