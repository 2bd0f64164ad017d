import { upstreamWatchdog } from "./deadline_watchdog.ts";
import type { ProviderClient } from "./http_clients.ts";
import type { UpstreamResponse } from "./http1_pool.ts";

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
  let response: UpstreamResponse;
  try {
    response = await request.client.post(request.url, request.headers, request.body, controller.signal);
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
  deadline.deadline = Date.now() + request.idleTimeoutMs;
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
    clientGone: () => controller.signal.aborted && !timedOut,
    body: () => ({
      async read() {
        try {
          const chunk = await response.read();
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
        response.cancel();
        done();
      },
    }),
  };
}

function connectionMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 300);
}
