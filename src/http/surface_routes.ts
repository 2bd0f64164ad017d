import type { AuthRefusal } from "../gateway/auth_failure_log.ts";
import type { ControlPlane } from "../gateway/control_plane.ts";
import type { Answer, Dispatcher, DispatchInput } from "../gateway/dispatch.ts";
import type { RequestTiming } from "../gateway/request_timing.ts";
import type { ClientIdentity } from "../gateway/identity.ts";
import { GatewayError, type WireFormat } from "../model/mod.ts";
import { type DecodeContext, hasCompactionTrigger, quoteValue } from "../wire/mod.ts";
import { authenticate } from "./auth.ts";
import { answerResponse } from "./answer_response.ts";
import { errorResponse } from "./errors.ts";
import { type BigBodies, MAX_BODY_BYTES, readJsonBody, readJsonRequest } from "./read_body.ts";
import type { BodyLane } from "./body_lane.ts";
import type { JsonParser } from "./json_parser.ts";
import { readMultipartBody } from "./read_multipart.ts";
import type { MediaBody } from "../gateway/media_dispatch.ts";
import type { MediaKind } from "../gateway/media_dispatch.ts";
import type { EmbeddingsFormat, RerankFormat } from "../model/mod.ts";
import type { EmbeddingsDecodeContext, EmbeddingsEndpoint } from "../wire/embeddings.ts";

/**
 * The model endpoints of the five client surfaces. They carry nearly all traffic, so they are matched
 * by a plain table lookup before the general router: no per-request routing context, no middleware
 * chain. Every other path goes to the Hono app.
 */
type SurfaceRoute =
  | { readonly kind: "model"; readonly surface: WireFormat; readonly decode: DecodeContext }
  | { readonly kind: "count_tokens"; readonly surface: "messages" }
  | { readonly kind: "compact"; readonly surface: "responses" }
  | { readonly kind: "generate"; readonly surface: "generate_content"; readonly target: string }
  | { readonly kind: "media"; readonly surface: "chat_completions"; readonly media: MediaKind }
  | { readonly kind: "rerank"; readonly surface: "chat_completions"; readonly format: RerankFormat }
  | {
    readonly kind: "embeddings";
    readonly surface: WireFormat;
    readonly format: EmbeddingsFormat;
    readonly endpoint: EmbeddingsEndpoint;
    /** Gemini's `<model>:<method>` path tail. */
    readonly target?: string;
  };

/** Largest audio upload (OpenAI's own limit for transcriptions and translations). */
export const MAX_AUDIO_UPLOAD_BYTES = 25 * 1024 * 1024;

const MEDIA_ROUTES: readonly [string, MediaKind][] = [
  ["/v1/images/generations", "image_generation"],
  ["/v1/images/edits", "image_edit"],
  ["/v1/audio/transcriptions", "transcription"],
  ["/v1/audio/translations", "translation"],
  ["/v1/audio/speech", "speech"],
];

const EXACT_ROUTES: ReadonlyMap<string, SurfaceRoute> = new Map<string, SurfaceRoute>([
  ["/v1/chat/completions", { kind: "model", surface: "chat_completions", decode: {} }],
  ["/v1/completions", { kind: "model", surface: "chat_completions", decode: { endpoint: "completions" } }],
  ["/v1/responses", { kind: "model", surface: "responses", decode: {} }],
  ["/v1/responses/compact", { kind: "compact", surface: "responses" }],
  ["/v1/messages", { kind: "model", surface: "messages", decode: {} }],
  ["/v1/messages/count_tokens", { kind: "count_tokens", surface: "messages" }],
  ["/api/chat", { kind: "model", surface: "local_runner", decode: { endpoint: "chat" } }],
  ["/api/generate", { kind: "model", surface: "local_runner", decode: { endpoint: "generate" } }],
  ["/v1/embeddings", {
    kind: "embeddings",
    surface: "chat_completions",
    format: "openai",
    endpoint: "embeddings",
  }],
  ["/api/embed", { kind: "embeddings", surface: "local_runner", format: "ollama", endpoint: "embed" }],
  ["/api/embeddings", {
    kind: "embeddings",
    surface: "local_runner",
    format: "ollama",
    endpoint: "embeddings",
  }],
  ["/v1/rerank", { kind: "rerank", surface: "chat_completions", format: "v1" }],
  ["/v2/rerank", { kind: "rerank", surface: "chat_completions", format: "v2" }],
  ...MEDIA_ROUTES.map(([path, media]): [string, SurfaceRoute] => [
    path,
    { kind: "media", surface: "chat_completions", media },
  ]),
]);

// @google/genai defaults to /v1/models/…; Gemini CLI and older SDKs use /v1beta/models/….
const GENERATE_PREFIXES = ["/v1beta/models/", "/v1/models/"];

/** The surface route of a POST path, or null when the general router should handle it. */
function matchSurfaceRoute(path: string): SurfaceRoute | null {
  const exact = EXACT_ROUTES.get(path);
  if (exact !== undefined) return exact;
  for (const prefix of GENERATE_PREFIXES) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      return generateRoute(path.slice(prefix.length));
    }
  }
  // `@ai-sdk/google`, `@google/generative-ai` (LangChain) and others read a model id with a slash as a
  // resource path: `gemini/gemini-2.5-flash` is called as /v1beta/gemini/gemini-2.5-flash:generateContent.
  for (const version of GENERATE_VERSIONS) {
    if (!path.startsWith(version)) continue;
    const target = path.slice(version.length);
    if (target.includes("/") && GENERATE_ACTION.test(target)) {
      return generateRoute(target);
    }
  }
  return null;
}

/** API versions a `<prefix>/<model>:action` path may follow (the resource-path form above). */
const GENERATE_VERSIONS = ["/v1beta/", "/v1/"];
/** The generate-content methods, as the end of a resource path. */
const GENERATE_ACTION = /:(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/;

/** A Gemini `<model>:<method>` tail: an embeddings method, or generate content (which names bad methods). */
function generateRoute(target: string): SurfaceRoute {
  const method = target.slice(target.lastIndexOf(":") + 1);
  if (method === "embedContent" || method === "batchEmbedContents") {
    return { kind: "embeddings", surface: "generate_content", format: "gemini", endpoint: method, target };
  }
  return { kind: "generate", surface: "generate_content", target };
}

/** What the surface handler needs. */
export interface SurfaceDeps {
  readonly control: ControlPlane;
  readonly dispatcher: Dispatcher;
  /** The wall clock (ms), for the few answers src/http makes itself (a WebSocket warm-up's `created_at`). */
  readonly now: () => number;
  /**
   * Aborted when a shutdown's drain deadline passes: in-flight upstream calls and streams end as if
   * their clients had left, so their usage rows are written before the process stops.
   */
  readonly drainSignal?: AbortSignal;
  /** Hears a model request refused with a 401, and why (the request log's sampled auth rows). */
  readonly authRefused?: (reason: AuthRefusal, surface: WireFormat) => void;
  /**
   * The identity of a key-less request sent by the dashboard's Playground with its session cookie (null
   * when it is not one; see src/dashboard/playground_access.ts); absent without a dashboard.
   */
  readonly sessionIdentity?: (request: Request) => ClientIdentity | null;
  /**
   * How bodies over BIG_BODY_BYTES are read (`body_lane.ts`): the budget of such bodies in flight, the
   * lane they are read, parsed and encoded in, and the thread that parses them; without it, they are read
   * as they come and parsed on the serving loop.
   */
  readonly bigBodies?: {
    readonly inFlight: BodyLane;
    readonly lane: BodyLane;
    readonly parser: JsonParser;
  };
  /** Makes a request's uid (the request log's); absent: no `x-gateway-request-id` header. */
  readonly requestUid?: () => string;
}

/** The response header that names a model request's row in the request log (its uid). */
export const REQUEST_ID_HEADER = "x-gateway-request-id";

/**
 * Handles a POST to a model endpoint, or returns null when `path` is not one. Errors become responses
 * in the surface's own format here, through the same boundary as the rest of the app.
 */
export function handleSurfaceRequest(
  deps: SurfaceDeps,
  path: string,
  request: Request,
  timing: RequestTiming,
): Promise<Response> | null {
  const route = matchSurfaceRoute(path);
  if (route === null) return null;
  const lane = laneClaim(deps.bigBodies, timing);
  // Known before dispatch, so a client (the Playground) can fetch its own request-log row, errors included.
  const uid = deps.requestUid?.();
  // The matched route names the surface: `/v1/models/<model>` without a method is still a Gemini client.
  const errorSurface = route.kind === "rerank" ? "rerank" : route.surface;
  const response = serveRoute(deps, route, request, timing, uid, lane.big)
    .catch((error) => errorResponse(error, errorSurface))
    .finally(lane.release);
  return uid === undefined ? response : response.then((r) => withRequestId(r, uid));
}

/** Names the request's uid on its response (answer and error responses are built here, so mutable). */
function withRequestId(response: Response, uid: string): Response {
  response.headers.set(REQUEST_ID_HEADER, uid);
  return response;
}

/**
 * One request's places for a big body: in the in-flight budget until its answer starts or it fails
 * (memory), and in the lane until its first upstream call starts (the body has then been read, parsed and
 * encoded: the steps that hold the event loop). See body_lane.ts.
 */
function laneClaim(
  bigBodies: SurfaceDeps["bigBodies"],
  timing: RequestTiming,
): { big?: BigBodies; release: () => void } {
  if (bigBodies === undefined) return { release: () => {} };
  let leaveInFlight = () => {};
  let leaveLane = () => {};
  return {
    big: {
      admit: async (bytes) => {
        leaveInFlight = await bigBodies.inFlight.acquire(bytes);
        leaveLane = await bigBodies.lane.acquire(bytes);
        timing.onUpstreamCall(leaveLane);
      },
      parser: bigBodies.parser,
    },
    release: () => {
      leaveLane();
      leaveInFlight();
    },
  };
}

async function serveRoute(
  deps: SurfaceDeps,
  route: SurfaceRoute,
  request: Request,
  timing: RequestTiming,
  requestUid: string | undefined,
  big: BigBodies | undefined,
): Promise<Response> {
  const identity = authenticate(
    deps.control,
    request,
    (reason) => deps.authRefused?.(reason, route.surface),
    deps.sessionIdentity,
  );
  const base = {
    identity,
    clientHeaders: request.headers,
    clientSignal: () =>
      deps.drainSignal ? AbortSignal.any([request.signal, deps.drainSignal]) : request.signal,
    timing,
    ...(requestUid === undefined ? {} : { requestUid }),
  };
  if (route.kind === "media") return serveMedia(deps, route.media, request, base, big);
  if (route.kind === "embeddings") return serveEmbeddingsRoute(deps, route, request, base, big);
  if (route.kind === "rerank") {
    const { value: body, longStrings } = await readJsonRequest(request, undefined, big);
    return answerResponse(
      await deps.dispatcher.rerank({ ...base, surface: route.surface, longStrings }, body, route.format),
    );
  }
  const decode = route.kind === "generate"
    ? generateContext(route.target, (name) => deps.control.combos.some((combo) => combo.name === name))
    : route.kind === "model"
    ? route.decode
    : {};
  const { value: body, longStrings } = await readJsonRequest(request, MAX_BODY_BYTES, big);
  const input: DispatchInput = {
    ...base,
    surface: route.surface,
    body,
    decode,
    ...(longStrings === undefined ? {} : { longStrings }),
  };
  if (route.kind === "count_tokens") return answerResponse(await deps.dispatcher.countTokens(input));
  if (route.kind === "compact") return answerResponse(await deps.dispatcher.compact(input, "endpoint"));
  return answerResponse(
    await (route.surface === "responses"
      ? serveResponsesInput(deps.dispatcher, input)
      : deps.dispatcher.handle(input)),
  );
}

/** What every model request hands the dispatcher besides its surface and body. */
type RequestBase = Omit<DispatchInput, "surface" | "body" | "decode" | "logSurface">;

/** An images or audio request: its body read (JSON, or a multipart upload under its size cap) and served. */
async function serveMedia(
  deps: SurfaceDeps,
  kind: MediaKind,
  request: Request,
  base: RequestBase,
  big: BigBodies | undefined,
): Promise<Response> {
  const body: MediaBody = kind === "image_generation" || kind === "speech"
    ? { kind, json: await readJsonBody(request, MAX_BODY_BYTES, big) }
    : {
      kind,
      form: await readMultipartBody(
        request,
        kind === "image_edit" ? MAX_BODY_BYTES : MAX_AUDIO_UPLOAD_BYTES,
        big,
      ),
    };
  return answerResponse(
    await deps.dispatcher.media({ ...base, surface: "chat_completions" }, body),
  );
}

/** An embeddings request in its client's format (Gemini's model comes from the path). */
async function serveEmbeddingsRoute(
  deps: SurfaceDeps,
  route: Extract<SurfaceRoute, { kind: "embeddings" }>,
  request: Request,
  base: RequestBase,
  big: BigBodies | undefined,
): Promise<Response> {
  const { value: body, longStrings } = await readJsonRequest(request, MAX_BODY_BYTES, big);
  const decode: EmbeddingsDecodeContext = {
    endpoint: route.endpoint,
    isComboName: (name) => deps.control.combos.some((combo) => combo.name === name),
    ...(route.target === undefined ? {} : { pathModel: pathModelOf(route.target) }),
  };
  return answerResponse(
    await deps.dispatcher.embeddings(
      { ...base, surface: route.surface, longStrings },
      body,
      route.format,
      decode,
    ),
  );
}

/** The model of a `<model>:<method>` path tail, percent-decoded; a 400 when it cannot be. */
function pathModelOf(target: string): string {
  try {
    return decodeURIComponent(target.slice(0, target.lastIndexOf(":")));
  } catch {
    throw new GatewayError(
      400,
      "invalid_request",
      `The model in the path is not valid percent-encoding: ${target}`,
    );
  }
}

/**
 * One Responses request, over HTTP or a WebSocket message: Codex's inline compaction (an input item
 * `compaction_trigger`) is served as a compaction, everything else by the dispatcher.
 */
export function serveResponsesInput(dispatcher: Dispatcher, input: DispatchInput): Promise<Answer> {
  return hasCompactionTrigger(input.body) ? dispatcher.compact(input, "inline") : dispatcher.handle(input);
}

/**
 * `<model>:generateContent` or `<model>:streamGenerateContent` → the decode context. The codec gives a
 * bare model name (what Gemini clients send) the `gemini/` prefix unless `isComboName` says it is a combo.
 */
function generateContext(target: string, isComboName: (name: string) => boolean): DecodeContext {
  const colon = target.lastIndexOf(":");
  const action = colon === -1 ? "" : target.slice(colon + 1);
  if (action !== "generateContent" && action !== "streamGenerateContent") {
    throw new GatewayError(
      404,
      "not_found",
      `Unknown method "${action || target}"; use :generateContent or :streamGenerateContent`,
    );
  }
  let model: string;
  try {
    model = decodeURIComponent(target.slice(0, colon));
  } catch {
    throw new GatewayError(
      400,
      "invalid_request",
      `Model name in the path is not valid: ${quoteValue(target)}`,
    );
  }
  return { pathModel: model, isComboName, pathStream: action === "streamGenerateContent" };
}

/** Picks the wire format errors on a path are encoded in. */
export function surfaceForPath(p: string): WireFormat | "utility" | "rerank" {
  if (p === "/v1/rerank" || p === "/v2/rerank") return "rerank";
  if (p.startsWith("/v1/chat/completions") || p.startsWith("/v1/completions")) return "chat_completions";
  if (p.startsWith("/v1/images/") || p.startsWith("/v1/audio/")) return "chat_completions";
  if (p.startsWith("/v1/responses")) return "responses";
  if (p.startsWith("/v1/messages")) return "messages";
  if (p.startsWith("/v1beta/") || (p.startsWith("/v1/models/") && p.includes(":"))) return "generate_content";
  if (p.startsWith("/v1/") && GENERATE_ACTION.test(p)) return "generate_content";
  if (p.startsWith("/api/")) return "local_runner";
  return "utility";
}
