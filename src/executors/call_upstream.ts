import { GatewayError } from "../model/mod.ts";
import type { ProviderClient } from "./http_clients.ts";

/** What came back from an upstream before any body byte was read. */
export type UpstreamOutcome =
  | {
    readonly kind: "response";
    readonly status: number;
    readonly headers: Headers;
    /** The body; reading it to the end or cancelling it frees the connection slot. */
    readonly body: ReadableStream<Uint8Array>;
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
  const headersTimer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("upstream headers timeout", "TimeoutError"));
  }, request.headersTimeoutMs);
  const done = () => {
    clearTimeout(headersTimer);
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
  clearTimeout(headersTimer);
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    kind: "response",
    status: response.status,
    headers: response.headers,
    body: body.pipeThrough(idleGuard(request.idleTimeoutMs, controller, done)),
  };
}

/** Passes chunks through; aborts the call after `idleMs` without a chunk; runs `done` exactly once at the end. */
function idleGuard(
  idleMs: number,
  controller: AbortController,
  done: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      controller.abort(new DOMException(`upstream sent nothing for ${idleMs / 1000}s`, "TimeoutError"));
      finish();
    }, idleMs);
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    start: arm,
    transform(chunk, c) {
      arm();
      c.enqueue(chunk);
    },
    flush: finish,
    cancel(reason) {
      controller.abort(reason);
      finish();
    },
  });
}

function connectionMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 300);
}
