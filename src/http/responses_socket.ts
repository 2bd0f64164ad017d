import { RequestTiming } from "../gateway/request_timing.ts";
import { GatewayError } from "../model/mod.ts";
import { isRecord } from "../wire/shared/mod.ts";
import { checkJsonShape } from "../wire/mod.ts";
import { MAX_BODY_BYTES } from "./read_body.ts";
import { authenticate } from "./auth.ts";
import { errorEnvelope, errorResponse } from "./errors.ts";
import type { Answer, FrameSource } from "../gateway/answer.ts";
import { type GatewayWarning, warningsHeaderValue } from "../gateway/warnings.ts";
import { serveResponsesInput, type SurfaceDeps } from "./surface_routes.ts";

/** The type of the socket message that carries an answer's warnings (docs/warnings.md). */
export const GATEWAY_WARNINGS_EVENT = "response.gateway_warnings";

/** True for Codex's WebSocket transport: `GET /v1/responses` asking to upgrade. */
export function isResponsesUpgrade(path: string, request: Request): boolean {
  return request.method === "GET" && path === "/v1/responses" &&
    request.headers.get("upgrade")?.toLowerCase() === "websocket";
}

/**
 * The Responses API over a WebSocket (Codex's preferred transport): each text message
 * `{"type":"response.create", …request fields}` is one streamed Responses request through the same
 * dispatch as HTTP (routing, fallback, savers, usage, logs), and each SSE event of its answer goes back
 * as one text message. Requests on one socket are served in order. An error is one message
 * `{"type":"error","status":…,"error":{…}}`. The key is checked before the upgrade, so a bad key is a
 * plain 401. A connection that cannot be upgraded gets 426, which makes Codex use HTTP at once.
 */
export function serveResponsesSocket(deps: SurfaceDeps, request: Request, clock: () => number): Response {
  let identity;
  try {
    refuseOtherSites(request);
    identity = authenticate(deps.control, request);
  } catch (error) {
    return errorResponse(error, "responses");
  }
  // The upgraded request's headers are gone once it is answered; every message reuses this copy.
  const headers = new Headers(request.headers);
  let upgraded: Deno.WebSocketUpgrade;
  try {
    upgraded = Deno.upgradeWebSocket(request);
  } catch {
    return errorResponse(
      new GatewayError(426, "invalid_request", "This connection cannot be upgraded to a WebSocket; use HTTP"),
      "responses",
    );
  }
  const { socket, response } = upgraded;
  const closed = new AbortController();
  const signal = deps.drainSignal ? AbortSignal.any([closed.signal, deps.drainSignal]) : closed.signal;
  socket.onclose = () => closed.abort();
  const chain: Chain = { last: null };
  let queue = Promise.resolve();
  socket.onmessage = (event) => {
    queue = queue.then(() =>
      serveMessage(deps, socket, event.data, { identity, headers, signal, chain, clock })
    );
  };
  return response;
}

/**
 * Browsers let any web page open a WebSocket to any host (no CORS), sending its own Origin. Coding
 * assistants send none; a page of another site must not drive the gateway's upstream accounts.
 */
function refuseOtherSites(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = "";
  }
  const own = [request.headers.get("host"), request.headers.get("x-forwarded-host")?.split(",")[0].trim()];
  if (host === "" || !own.includes(host)) {
    throw new GatewayError(
      403,
      "permission",
      "WebSocket connections from web pages of other sites are refused",
    );
  }
}

function send(socket: FrameSocket, data: string): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(data);
}

function sendError(socket: WebSocket, status: number, error: unknown): void {
  send(socket, JSON.stringify({ type: "error", status, error }));
}

/** An error as the Responses API words it over HTTP, as one `error` message. */
function sendGatewayError(socket: WebSocket, error: unknown): void {
  const { status, body: envelope } = errorEnvelope(error, "responses");
  sendError(socket, status, isRecord(envelope) && "error" in envelope ? envelope.error : envelope);
}

/**
 * The last response on one socket and the items it leaves in the conversation. Over a WebSocket, Codex
 * sends only the new items with `previous_response_id`, usually with `store: false`: the socket keeps what
 * its last id stands for (for the socket's lifetime) and sends whole requests; older ids and ids of other
 * connections are resolved by the response store, like over HTTP.
 */
interface Chain {
  last: { readonly id: string; readonly items: readonly unknown[] } | null;
}

/** What every message on one socket shares. */
interface SocketContext {
  readonly identity: ReturnType<typeof authenticate>;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly chain: Chain;
  /** The clock each message's RequestTiming runs on (each message is one request). */
  readonly clock: () => number;
}

function inputItems(input: unknown): unknown[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  return Array.isArray(input) ? input : [];
}

async function serveMessage(
  deps: SurfaceDeps,
  socket: WebSocket,
  data: unknown,
  { identity, headers, signal, chain, clock }: SocketContext,
): Promise<void> {
  if (typeof data === "string" && data.length > MAX_BODY_BYTES) {
    // The HTTP body limit (a socket takes messages up to 64 MiB): parsing one that size held the loop ~40 ms.
    const tooLarge = new GatewayError(
      413,
      "payload_too_large",
      `WebSocket message is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`,
    );
    sendGatewayError(socket, tooLarge);
    return;
  }
  const body = requestOf(data);
  if (body === null) return;
  if (typeof body === "string") {
    sendError(socket, 400, { type: "invalid_request_error", code: "invalid_request", message: body });
    return;
  }
  if (typeof body.previous_response_id === "string" && chain.last?.id === body.previous_response_id) {
    // The fast path: the socket's own last response, even one the store did not keep (`store: false`).
    body.input = [...chain.last.items, ...inputItems(body.input)];
    delete body.previous_response_id;
  }
  // Any other id (an HTTP request's, another socket's) is the response store's to resolve in the dispatch.
  if (body.generate === false) {
    // Codex's warm-up: it only wants to see a completed response, so no upstream is asked.
    chain.last = { id: sendWarmup(socket, body, deps.now()), items: inputItems(body.input) };
    return;
  }
  delete body.generate;
  let answer: Answer;
  try {
    answer = await serveResponsesInput(deps.dispatcher, {
      surface: "responses",
      body: { ...body, stream: true },
      decode: {},
      identity,
      clientHeaders: headers,
      clientSignal: () => signal,
      timing: new RequestTiming(clock),
      transport: "websocket",
    });
  } catch (error) {
    sendGatewayError(socket, error);
    return;
  }
  if (answer.warnings.length > 0) sendWarnings(socket, answer.warnings);
  const output = answer.body.kind === "stream"
    ? await forwardFrames(socket, answer.body.frames, signal)
    : answer.body.kind === "json"
    ? forwardJson(socket, answer.body.value)
    : null;
  chain.last = output === null
    ? null
    : { id: output.id, items: [...inputItems(body.input), ...output.items] };
}

/**
 * What translation lost, as the `x-gateway-warnings` header says over HTTP: one message ahead of the
 * response's events, of a type Responses clients do not know and skip (Codex ignores unknown event types).
 */
function sendWarnings(socket: WebSocket, warnings: readonly GatewayWarning[]): void {
  send(
    socket,
    JSON.stringify({
      type: GATEWAY_WARNINGS_EVENT,
      codes: warningsHeaderValue(warnings),
      warnings: warnings.map(({ code, message }) => ({ code, message })),
    }),
  );
}

/** The request fields of a `response.create` message, null for one to ignore, or what is wrong with it. */
function requestOf(data: unknown): Record<string, unknown> | string | null {
  if (typeof data !== "string") return "WebSocket messages must be JSON text";
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return "WebSocket message is not valid JSON";
  }
  // The same nesting and value caps as an HTTP body (read_body.ts): what walks the request later has to
  // stay within the stack, and validation time grows with the number of values.
  try {
    checkJsonShape(message, "WebSocket message");
  } catch (error) {
    if (error instanceof GatewayError) return error.message;
    throw error;
  }
  // Codex acknowledges a finished response; nothing is owed back, and an answer would be read as the
  // start of its next request's stream.
  if (isRecord(message) && message.type === "response.processed") return null;
  if (!isRecord(message) || message.type !== "response.create") {
    return 'Unsupported WebSocket message: send {"type":"response.create", …request fields}';
  }
  // Fields sit at the top level (Codex) or under `response` (the Realtime-style shape).
  const { type: _type, response, ...fields } = message;
  return isRecord(response) ? { ...response } : fields;
}

/** Answers a warm-up with an empty completed response and returns its id. */
function sendWarmup(socket: WebSocket, body: Record<string, unknown>, nowMs: number): string {
  const response = {
    id: `resp_warmup_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "response",
    created_at: Math.floor(nowMs / 1000),
    status: "completed",
    model: body.model,
    output: [],
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  };
  send(
    socket,
    JSON.stringify({ type: "response.created", response: { ...response, status: "in_progress" } }),
  );
  send(socket, JSON.stringify({ type: "response.completed", response }));
  return response.id;
}

/**
 * Most bytes a socket may hold unsent before the next frames are read from the upstream. A WebSocket has no
 * backpressure of its own: without this a client that reads slowly would have the whole answer buffered
 * for it, where over HTTP the stream waits for the client.
 */
export const SOCKET_UNSENT_BYTES = 1024 * 1024;
/** How often a socket over SOCKET_UNSENT_BYTES is looked at again (it has no event for a drained buffer). */
const DRAIN_POLL_MS = 10;

/** The socket side of forwardFrames: what it sends on and reads its backlog from. */
export type FrameSocket = Pick<WebSocket, "send" | "readyState" | "bufferedAmount">;

/**
 * Sends the data of each frame as one message, one batch (one upstream read) at a time, waiting while the
 * socket holds more than SOCKET_UNSENT_BYTES unsent. Returns the completed response's id and output items
 * (what a later `previous_response_id` stands for), or null when the stream did not complete. The socket
 * closing cancels the stream, as a client leaving an HTTP stream does.
 */
export async function forwardFrames(
  socket: FrameSocket,
  source: FrameSource,
  signal: AbortSignal,
): Promise<{ id: string; items: unknown[] } | null> {
  let completed: { id: string; items: unknown[] } | null = null;
  const cancel = () => source.cancel(signal.reason);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (let frames = await source.next(); frames !== null; frames = await source.next()) {
      for (const frame of frames) {
        send(socket, frame.data);
        if (frame.event === "response.completed" || frame.data.includes('"response.completed"')) {
          completed = completedResponse(frame.data) ?? completed;
        }
      }
      while (socket.bufferedAmount > SOCKET_UNSENT_BYTES && socket.readyState === WebSocket.OPEN) {
        if (signal.aborted) return null;
        await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
      }
      if (signal.aborted) return null;
    }
  } catch {
    // The upstream broke after the first event: the stream is cut short, as over HTTP.
    return null;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
  return completed;
}

/** A whole JSON answer (a compaction to a client that did not ask to stream) as one message. */
function forwardJson(socket: WebSocket, value: unknown): { id: string; items: unknown[] } | null {
  send(socket, JSON.stringify(value));
  return null;
}

function completedResponse(data: string): { id: string; items: unknown[] } | null {
  try {
    const event: unknown = JSON.parse(data);
    if (!isRecord(event) || event.type !== "response.completed" || !isRecord(event.response)) return null;
    const { id, output } = event.response;
    return typeof id === "string" ? { id, items: Array.isArray(output) ? output : [] } : null;
  } catch {
    return null;
  }
}
