import { type Deadline, upstreamWatchdog } from "./deadline_watchdog.ts";
import type { ProviderClient } from "./http_clients.ts";

/** What came back from an upstream before any body byte was read. */
export type UpstreamOutcome =
  | {
    readonly kind: "response";
    readonly status: number;
    readonly headers: Headers;
    /**
     * Reads the whole body as text (at most `limit` characters) and frees the connection slot. Use this or
     * `stream()`, once.
     */
    readonly readText: (limit?: number) => Promise<string>;
    /** The body as a stream guarded by the idle timeout; reading it to the end or cancelling it frees the slot. */
    readonly stream: () => ReadableStream<Uint8Array>;
    /** True once the client left and the call was aborted for it (a cut body is then not the upstream's fault). */
    readonly clientGone: () => boolean;
  }
  | { readonly kind: "network"; readonly reason: "timeout" | "connection"; readonly message: string }
  /** The client left before the upstream answered; the call was aborted. */
  | { readonly kind: "cancelled" };

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
  const body = () => response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  deadline.deadline = Date.now() + request.idleTimeoutMs;
  return {
    kind: "response",
    status: response.status,
    headers: response.headers,
    // A whole body is read directly: a guard stream per chunk costs more than the watchdog needs.
    readText: async (limit = Number.POSITIVE_INFINITY) => {
      try {
        return limit === Number.POSITIVE_INFINITY
          ? await readWhole(response)
          : await readLimited(body(), limit);
      } finally {
        done();
      }
    },
    clientGone: () => controller.signal.aborted && !timedOut,
    stream: () => body().pipeThrough(idleGuard(request.idleTimeoutMs, deadline, controller, done)),
  };
}

/** The whole body in one native read (faster than a reader loop); a broken body becomes a message. */
async function readWhole(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    return `(body unreadable: ${(error as Error).message})`;
  }
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

/** Passes chunks through, pushing the deadline back on each; runs `done` once at the end. */
function idleGuard(
  idleMs: number,
  deadline: Deadline,
  controller: AbortController,
  done: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, c) {
      deadline.deadline = Date.now() + idleMs;
      c.enqueue(chunk);
    },
    flush: done,
    cancel(reason) {
      controller.abort(reason);
      done();
    },
  });
}

function connectionMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 300);
}
