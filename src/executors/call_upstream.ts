import { GatewayError } from "../model/mod.ts";
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
  }
  | { readonly kind: "network"; readonly reason: "timeout" | "connection"; readonly message: string };

/** One upstream HTTP call. */
export interface UpstreamRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly client: ProviderClient;
  /** Aborted when the client disconnects. */
  readonly signal: AbortSignal;
  /** Longest wait for response headers. */
  readonly headersTimeoutMs: number;
  /** Longest silence between body chunks once the response started. */
  readonly idleTimeoutMs: number;
}

/**
 * POSTs to the upstream through the provider's client. Network failures and timeouts come back as
 * values (they are routing facts, not exceptions); a client disconnect aborts the call and its body.
 */
export async function callUpstream(request: UpstreamRequest): Promise<UpstreamOutcome> {
  const release = await request.client.acquire();
  const controller = new AbortController();
  const onClientAbort = () => controller.abort(new DOMException("client disconnected", "AbortError"));
  if (request.signal.aborted) onClientAbort();
  request.signal.addEventListener("abort", onClientAbort, { once: true });
  let timedOut = false;
  const deadline = upstreamWatchdog.watch(Date.now() + request.headersTimeoutMs, () => {
    timedOut = true;
    controller.abort(new DOMException("upstream timeout", "TimeoutError"));
    done();
  });
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    upstreamWatchdog.unwatch(deadline);
    request.signal.removeEventListener("abort", onClientAbort);
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
    if (request.signal.aborted) {
      throw new GatewayError(499, "invalid_request", "client disconnected before the upstream answered", {
        cause: error,
      });
    }
    return timedOut
      ? {
        kind: "network",
        reason: "timeout",
        message: `no response within ${request.headersTimeoutMs / 1000}s`,
      }
      : { kind: "network", reason: "connection", message: connectionMessage(error) };
  }
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  deadline.deadline = Date.now() + request.idleTimeoutMs;
  return {
    kind: "response",
    status: response.status,
    headers: response.headers,
    // A whole body is read directly: a guard stream per chunk costs more than the watchdog needs.
    readText: async (limit = Number.POSITIVE_INFINITY) => {
      try {
        return await readLimited(body, limit);
      } finally {
        done();
      }
    },
    stream: () => body.pipeThrough(idleGuard(request.idleTimeoutMs, deadline, controller, done)),
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
