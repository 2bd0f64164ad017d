import { upstreamWatchdog } from "./deadline_watchdog.ts";
import type { ProviderClient } from "./http_clients.ts";
import type { RequestBody } from "./request_body.ts";
import { BodyTooLargeError, describeError, type UpstreamResponse } from "./upstream_response.ts";

export { BodyTooLargeError } from "./upstream_response.ts";

/** What came back from an upstream before any body byte was read. */
export type UpstreamOutcome =
  | {
    readonly kind: "response";
    readonly status: number;
    /** A response header by lower-case name, or null. */
    readonly header: (name: string) => string | null;
    /**
     * Reads the whole body as text (past about `limit` bytes the rest is dropped) and frees the connection
     * slot. Use this or `body()`, once.
     */
    readonly readText: (limit?: number) => Promise<string>;
    /**
     * Reads the whole body as text (an answer); rejects with a BodyTooLargeError as soon as it is known
     * to exceed `maxBytes` (the connection is then closed, not reused). Frees the slot. Use this, readText
     * or `body()`, once.
     */
    readonly readAnswer: (maxBytes: number) => Promise<string>;
    /** The body chunk by chunk, guarded by the idle timeout; reading it to the end or cancelling it frees the slot. */
    readonly body: () => UpstreamBody;
    /** True once the client left and the call was aborted for it (a cut body is then not the upstream's fault). */
    readonly clientGone: () => boolean;
  }
  | { readonly kind: "network"; readonly reason: "timeout" | "connection"; readonly message: string }
  /** No request slot of the provider's client freed up in time (`limits.pool_wait_timeout_s`). */
  | { readonly kind: "overloaded"; readonly message: string }
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
  /**
   * The stream's first content arrived: the first-content deadline no longer applies, the total stream
   * duration limit (if any) does.
   */
  committed(): void;
}

/** One upstream HTTP call. */
export interface UpstreamRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  /** JSON text, bytes (a multipart upload), or JSON bytes in parts (a big body, `sliced_json.ts`). */
  readonly body: RequestBody;
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
  /**
   * For streams: the first content must come this long after the request was sent, whatever arrives
   * before it (keep-alive comments, empty events). Absent for non-stream calls.
   */
  readonly firstContentTimeoutMs?: number;
  /** For streams: the longest a stream may run from the request on; absent or 0 = no limit. */
  readonly maxStreamDurationMs?: number;
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
  if (release === null) {
    const { maxConnections, poolWaitMs } = request.client.limits;
    return {
      kind: "overloaded",
      message: `all ${maxConnections} connections to this account stayed busy for ${
        poolWaitMs / 1000
      }s (limits.max_connections, limits.pool_wait_timeout_s)`,
    };
  }
  const controller = new AbortController();
  // A shutdown's drain deadline aborts with its own AbortError reason; a client that left has none.
  const onClientAbort = () =>
    controller.abort(
      clientSignal?.reason instanceof DOMException && clientSignal.reason.name === "AbortError"
        ? clientSignal.reason
        : new DOMException("client disconnected", "AbortError"),
    );
  let clientSignal: AbortSignal | null = null;
  const watchClient = () => {
    clientSignal = request.clientSignal();
    if (clientSignal.aborted) onClientAbort();
    else clientSignal.addEventListener("abort", onClientAbort, { once: true });
  };
  const sentAt = performance.now();
  // The end of the current phase, past which no idle time counts: the first content of a stream, then
  // (once committed) its total duration. Keep-alives push the idle deadline back, never this one.
  let phaseEnd = request.firstContentTimeoutMs ? sentAt + request.firstContentTimeoutMs : Infinity;
  let streaming = false;
  let responded = false;
  let timedOut = false;
  let timeoutMessage = "";
  const deadline = upstreamWatchdog.watch(Math.min(sentAt + request.headersTimeoutMs, phaseEnd), () => {
    timedOut = true;
    timeoutMessage = deadline.deadline < phaseEnd
      ? (responded
        ? `no data for ${request.idleTimeoutMs / 1000}s`
        : `no response within ${request.headersTimeoutMs / 1000}s`)
      : streaming
      ? `the stream ran longer than ${request.maxStreamDurationMs! / 1000}s (limits.max_stream_duration_s)`
      : `no content within ${request.firstContentTimeoutMs! / 1000}s of the request ` +
        `(limits.first_content_timeout_s; keep-alive comments do not count)`;
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
  let response: UpstreamResponse;
  try {
    response = await request.client.post(request.url, request.headers, request.body, controller.signal);
  } catch (error) {
    done();
    if (controller.signal.aborted && !timedOut) return { kind: "cancelled" };
    return timedOut
      ? { kind: "network", reason: "timeout", message: timeoutMessage }
      : { kind: "network", reason: "connection", message: connectionMessage(error) };
  }
  responded = true;
  deadline.deadline = Math.min(performance.now() + request.idleTimeoutMs, phaseEnd);
  return {
    kind: "response",
    status: response.status,
    header: (name) => response.header(name),
    readText: async (limit) => {
      try {
        return await response.text(limit);
      } catch (error) {
        return `(body unreadable: ${connectionMessage(error)})`;
      } finally {
        done();
      }
    },
    readAnswer: async (maxBytes) => {
      try {
        return await response.answer(maxBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) throw error;
        return `(body unreadable: ${timedOut ? timeoutMessage : connectionMessage(error)})`;
      } finally {
        done();
      }
    },
    clientGone: () => controller.signal.aborted && !timedOut,
    body: () => ({
      async read() {
        try {
          const chunk = await response.read();
          if (chunk === null) {
            done();
            return null;
          }
          // Each chunk pushes the idle deadline back (plain arithmetic; the watchdog does the rest).
          deadline.deadline = Math.min(performance.now() + request.idleTimeoutMs, phaseEnd);
          return chunk;
        } catch (error) {
          done();
          if (timedOut) throw new Error(timeoutMessage, { cause: error });
          throw error;
        }
      },
      cancel(reason) {
        controller.abort(reason);
        response.cancel();
        done();
      },
      committed() {
        streaming = true;
        phaseEnd = request.maxStreamDurationMs ? sentAt + request.maxStreamDurationMs : Infinity;
        deadline.deadline = Math.min(performance.now() + request.idleTimeoutMs, phaseEnd);
      },
    }),
  };
}

function connectionMessage(error: unknown): string {
  return describeError(error);
}
