/**
 * Images and audio through the same keys, allowlists, budgets, routing, fallback, cooldowns, usage rows and
 * request logs as chat: one request, its attempts in plan order, each called with the target's own body
 * (OpenAI-compatible images/audio endpoints, or Gemini's generateContent for images). Answers are JSON, or
 * upstream bytes passed through (speech audio, streamed transcription events, text transcripts).
 */
import { type AudioBill, imageCost, type Price, speechCost, transcriptionCost } from "../accounting/mod.ts";
import type { CallTarget, TraceHeaders } from "./prepare_call.ts";
import type { UsageRow } from "../storage/mod.ts";
import type { UpstreamOutcome, UpstreamRequest } from "../executors/call_upstream.ts";
import { isSubscriptionKind } from "../executors/oauth/mod.ts";
import { operationUrl, upstreamModelName } from "../executors/presets.ts";
import {
  GatewayError,
  type GatewayWarning,
  type MultipartBody,
  type NeutralImageRequest,
  type NeutralImageResponse,
  type NeutralRequest,
  type NeutralSpeechRequest,
  type NeutralTranscriptionRequest,
  type UploadedFile,
  type Usage,
} from "../model/mod.ts";
import { type Attempt, kindOfModel, mayServe, type MediaKind, mediaKindLabel } from "../routing/mod.ts";
import { decodeGeminiImageResponse, encodeGeminiImageRequest } from "../wire/gemini_images/mod.ts";
import {
  decodeSpeech,
  decodeTranscription,
  encodeSpeech,
  encodeTranscription,
  transcriptionBill,
} from "../wire/openai_audio/mod.ts";
import {
  decodeImageEdit,
  decodeImageGeneration,
  decodeOpenAiImageResponse,
  encodeOpenAiImageRequest,
  encodeOpenAiImageResponse,
} from "../wire/openai_images/mod.ts";
import { encodeMultipart } from "../wire/shared/multipart.ts";
import { invalidAt } from "../wire/shared/mod.ts";
import { modelNameProblem } from "../wire/mod.ts";
import { type Answer, bytesAnswer, type ByteSource, jsonAnswer } from "./answer.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";
import { admitRequest } from "./admission.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";
import type { RequestTiming } from "./request_timing.ts";
import { jsonRequestBody } from "./sliced_json.ts";
import { base64StandIn } from "./stand_ins.ts";
import { LongStrings } from "../long_strings.ts";
import {
  callKindUpstream,
  kindAttemptEnded,
  type KindAttemptResult,
  type KindDeps,
  serveKindAttempts,
  upstreamCallBase,
} from "./kind_attempts.ts";

export type { MediaKind };

/** One media request, decoded by its surface. */
export type MediaRequest =
  | { readonly kind: "image_generation" | "image_edit"; readonly request: NeutralImageRequest }
  | { readonly kind: "transcription" | "translation"; readonly request: NeutralTranscriptionRequest }
  | { readonly kind: "speech"; readonly request: NeutralSpeechRequest };

type ImageMedia = Extract<MediaRequest, { kind: "image_generation" | "image_edit" }>;
type TranscriptionMedia = Extract<MediaRequest, { kind: "transcription" | "translation" }>;

function isImage(media: MediaRequest): media is ImageMedia {
  return media.kind === "image_generation" || media.kind === "image_edit";
}

function isTranscription(media: MediaRequest): media is TranscriptionMedia {
  return media.kind === "transcription" || media.kind === "translation";
}

/** Whether the client gets the answer as a stream (speech audio, streamed transcription events). */
function streams(media: MediaRequest): boolean {
  return media.kind === "speech" || (isTranscription(media) && media.request.stream);
}

/** A media body as the HTTP layer read it: JSON (generations, speech) or a multipart form. */
export type MediaBody =
  | { readonly kind: "image_generation" | "speech"; readonly json: unknown }
  | { readonly kind: "image_edit" | "transcription" | "translation"; readonly form: MultipartBody };

/**
 * Decodes a media body with its endpoint's codec, held to the model-name limit every surface shares (a
 * lone surrogate cannot go into an upstream URL); throws GatewayError(400) naming the field.
 */
export function decodeMedia(body: MediaBody): MediaRequest {
  const media = decodeMediaKind(body);
  const problem = modelNameProblem(media.request.model);
  if (problem !== undefined) throw invalidAt(["model"], problem);
  return media;
}

function decodeMediaKind(body: MediaBody): MediaRequest {
  switch (body.kind) {
    case "image_generation":
      return { kind: body.kind, request: decodeImageGeneration(body.json) };
    case "speech":
      return { kind: body.kind, request: decodeSpeech(body.json) };
    case "image_edit":
      return { kind: body.kind, request: decodeImageEdit(body.form) };
    case "transcription":
    case "translation":
      return { kind: body.kind, request: decodeTranscription(body.form) };
  }
}

/**
 * What the request log keeps of a media body: JSON as it came, a form's text fields and, for each file,
 * its name, type and size; never the bytes.
 */
export function mediaLogBody(body: MediaBody): unknown {
  if ("json" in body) return body.json;
  return {
    ...body.form.fields,
    files: body.form.files.map((f) => ({
      field: f.field,
      filename: f.filename,
      content_type: f.contentType,
      bytes: f.data.length,
    })),
  };
}

/** Who asked, and the request. */
export interface MediaInput {
  readonly media: MediaRequest;
  readonly identity: ClientIdentity;
  readonly clientSignal: () => AbortSignal;
  readonly timing: RequestTiming;
}

/** What the media flow needs from the runtime: the non-chat kinds' deps. */
export type MediaDeps = KindDeps;

/** Streamed transcription events kept to find the final one's usage. */
const TAIL_CHARS = 64 * 1024;

/** The upstream path of each kind on an OpenAI-compatible base URL. */
const OPENAI_PATHS: Readonly<Record<MediaKind, string>> = {
  image_generation: "/images/generations",
  image_edit: "/images/edits",
  transcription: "/audio/transcriptions",
  translation: "/audio/translations",
  speech: "/audio/speech",
};

/** How a target's API type serves media: OpenAI's endpoints, Gemini's generateContent, or not at all. */
type MediaRoute = "openai" | "gemini" | null;

function routeOf(kind: MediaKind, target: CallTarget): MediaRoute {
  if (isSubscriptionKind(target.provider.apiType)) return null;
  if (target.preset.format === "chat_completions") return "openai";
  if (target.preset.format === "generate_content" && (kind === "image_generation" || kind === "image_edit")) {
    return "gemini";
  }
  return null;
}

/** Serves one media request to its end (the lifecycle completes or fails here). */
export async function serveMedia(
  deps: MediaDeps,
  input: MediaInput,
  lifecycle: RequestLifecycle,
): Promise<Answer> {
  const { media, identity } = input;
  const model = media.request.model;
  const table = deps.table();
  const placeholder = placeholderRequest(media);
  lifecycle.decoded(placeholder, model);
  const admitted = admitRequest(deps, lifecycle, identity, "chat_completions", placeholder, table);
  if (admitted instanceof Promise) await admitted;
  const label = mediaKindLabel(media.kind);
  return await serveKindAttempts(deps, table, {
    model,
    identity,
    clientSignal: input.clientSignal,
    canServe: (a, target) =>
      routeOf(media.kind, target) !== null && mayServe(media.kind, a.upstreamModel, a.account.kinds),
    whyNone: (first) => {
      const kind = first === undefined ? undefined : kindOfModel(first.upstreamModel, first.account.kinds);
      const why = first !== undefined && !mayServe(media.kind, first.upstreamModel, first.account.kinds)
        ? `"${first.upstreamModel}" is ${kind === "embedding" ? "an embedding" : `a ${kind}`} model`
        : "its providers cannot serve it (OpenAI-compatible providers serve images and audio; Gemini ones images)";
      return `Model "${model}" cannot be used for ${label}: ${why}`;
    },
    run: (attempt, target, span) => runMediaAttempt(deps, input, attempt, target, lifecycle, span),
  }, lifecycle);
}

type AttemptResult = KindAttemptResult;

/** The chat-shaped stand-in the usage recorder reads: the model asked for, its text, whether it streams. */
function placeholderRequest(media: MediaRequest): NeutralRequest {
  const text = media.kind === "speech" ? media.request.input : isImage(media) ? media.request.prompt : "";
  return {
    model: media.request.model,
    system: [],
    messages: text === "" ? [] : [{ role: "user", parts: [{ kind: "text", text }] }],
    tools: [],
    params: {},
    stream: streams(media),
    source: "chat_completions",
  };
}

/**
 * The upstream call of one attempt, and what the target could not express. A JSON body with a long
 * string (a base64 image) is encoded a slice per turn (sliced_json.ts).
 */
async function buildCall(
  deps: MediaDeps,
  input: MediaInput,
  attempt: Attempt,
  target: CallTarget,
  route: "openai" | "gemini",
  trace: TraceHeaders,
): Promise<{ call: UpstreamRequest; warnings: readonly GatewayWarning[] }> {
  const { media } = input;
  const { provider, preset } = target;
  const base = upstreamCallBase(deps, target, input.clientSignal);
  const auth = preset.authHeaders(provider.apiKey);
  if (route === "gemini") {
    if (media.kind !== "image_generation" && media.kind !== "image_edit") {
      throw new Error("gemini serves images only");
    }
    // Images go inline as base64: a big upload's is made and written a piece per turn.
    const longStrings = new LongStrings();
    const base64 = new Map<UploadedFile, string>();
    for (const image of media.request.images) base64.set(image, await base64StandIn(image.data, longStrings));
    const encoded = encodeGeminiImageRequest(media.request, (image) => base64.get(image)!);
    return {
      call: {
        url: preset.url(provider.baseUrl, attempt.upstreamModel, false),
        headers: { "content-type": "application/json", accept: "application/json", ...auth, ...trace },
        body: await jsonRequestBody(encoded.body, longStrings),
        ...base,
      },
      warnings: encoded.warnings,
    };
  }
  const url = operationUrl(preset, provider.baseUrl, OPENAI_PATHS[media.kind], attempt.upstreamModel);
  const model = upstreamModelName(preset, attempt.upstreamModel);
  const json = async (body: unknown) => ({
    call: {
      url,
      headers: { "content-type": "application/json", ...auth, ...trace },
      body: await jsonRequestBody(body),
      ...base,
    },
    warnings: [],
  });
  const multipart = (form: Parameters<typeof encodeMultipart>[0], warnings: readonly GatewayWarning[]) => {
    const encoded = encodeMultipart(form, `gateway-${deps.newId()}`);
    return {
      call: {
        url,
        headers: { "content-type": encoded.contentType, ...auth, ...trace },
        body: encoded.parts,
        ...base,
      },
      warnings,
    };
  };
  switch (media.kind) {
    case "image_generation":
    case "image_edit": {
      const encoded = encodeOpenAiImageRequest(media.request, model);
      return encoded.kind === "json"
        ? { ...await json(encoded.body), warnings: encoded.warnings }
        : multipart(encoded.body, encoded.warnings);
    }
    case "transcription":
    case "translation":
      return multipart(encodeTranscription(media.request, model), []);
    case "speech":
      return json(encodeSpeech(media.request, model));
  }
}

async function runMediaAttempt(
  deps: MediaDeps,
  input: MediaInput,
  attempt: Attempt,
  target: CallTarget,
  lifecycle: RequestLifecycle,
  span: AttemptTrace,
): Promise<AttemptResult> {
  const route = routeOf(input.media.kind, target)!;
  const built = await buildCall(deps, input, attempt, target, route, span.headers);
  const warnings = built.warnings;
  const call = built.call;
  const started = deps.now();
  const row = new MediaRow(deps, input, attempt, target, started, lifecycle, span);
  const outcome = await callKindUpstream(deps, call, target, input.timing, (status, message) => {
    row.write(status, null, message, () => 0);
  });
  if (outcome.kind === "failure") return outcome;
  lifecycle.warned(warnings);
  const media = input.media;
  const contentType = outcome.header("content-type") ?? "";
  if (!isImage(media) && (media.kind === "speech" || !contentType.includes("json"))) {
    const answer = await passThrough(deps, outcome, input, row, lifecycle, warnings);
    return { kind: "answer", answer };
  }
  let value: unknown;
  let text: string;
  try {
    text = await input.timing.waitFor(outcome.readAnswer(deps.limits.maxAnswerBytes));
  } catch (error) {
    // Too large (limits.max_answer_bytes) or cut off: the upstream's fault, never a 500.
    throw row.upstreamFault(`The upstream's answer could not be read: ${(error as Error).message}`);
  }
  if (outcome.clientGone()) throw new GatewayError(499, "client_closed", "client disconnected");
  try {
    value = JSON.parse(text);
  } catch {
    throw row.upstreamFault(`The upstream's answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (!isImage(media)) {
    const bill = transcriptionBill(value);
    row.write(200, bill.usage ?? null, "", (price) => transcriptionCost(bill, price));
    deps.routing.succeed(target.provider.id, target.provider.prefix, identityRoutingKey(input.identity));
    const answer = jsonAnswer(value, lifecycle.trace.warnings, text);
    return { kind: "answer", answer: lifecycle.complete(answer, text, false) };
  }
  let images: NeutralImageResponse;
  try {
    images = route === "gemini" ? decodeGeminiImageResponse(value) : decodeOpenAiImageResponse(value);
  } catch (error) {
    row.write(502, null, (error as Error).message, () => 0);
    throw error;
  }
  const request = media.request;
  row.write(
    200,
    images.usage ?? null,
    "",
    (price) =>
      imageCost({
        images: images.images.length,
        quality: request.quality,
        size: request.size,
        usage: images.usage,
      }, price),
  );
  deps.routing.succeed(target.provider.id, target.provider.prefix, identityRoutingKey(input.identity));
  const body = encodeOpenAiImageResponse(images, request.responseFormat, Math.floor(deps.now() / 1000));
  const bodyText = JSON.stringify(body);
  // The request log keeps how many images came back, never their bytes.
  const logged = `${images.images.length} image(s), ${bodyText.length} bytes of JSON`;
  return {
    kind: "answer",
    answer: lifecycle.complete(jsonAnswer(body, lifecycle.trace.warnings, bodyText), logged, false),
  };
}

/**
 * Speech audio, streamed transcription events and text transcripts go to the client as the upstream sends
 * them. The usage row is written when the body ends: speech by its input's characters, a streamed
 * transcription by the usage of its final event. The first bytes are read before the client gets its
 * status: speech or a transcription stream without a single byte, or a body that breaks before one, is
 * the upstream's failure (a 502), never an empty 200. A text transcript may be empty (silent audio).
 */
async function passThrough(
  deps: MediaDeps,
  outcome: Extract<UpstreamOutcome, { kind: "response" }>,
  input: MediaInput,
  row: MediaRow,
  lifecycle: RequestLifecycle,
  warnings: readonly GatewayWarning[],
): Promise<Answer> {
  const media = input.media;
  const body = outcome.body();
  let first: Uint8Array | null;
  try {
    first = await input.timing.waitFor(body.read());
  } catch (error) {
    if (outcome.clientGone()) {
      row.write(499, null, "client disconnected", () => 0);
      throw new GatewayError(499, "client_closed", "client disconnected");
    }
    throw row.upstreamFault(`The upstream's answer could not be read: ${(error as Error).message}`);
  }
  if (first === null && streams(media)) {
    throw row.upstreamFault(
      `The upstream answered the ${mediaKindLabel(media.kind)} request with an empty body`,
    );
  }
  if (first !== null) body.committed();
  // The request ends (and its request-log row is queued) when the answer starts, but the usage row only
  // when the bytes have passed: the request log waits for that row, so it shows the cost and units.
  row.writtenLater();
  const decoder = new TextDecoder();
  let tail = "";
  let ended = false;
  const end = (status: number, error: string) => {
    if (ended) return;
    ended = true;
    if (media.kind === "speech") {
      row.write(status, null, error, (price) => speechCost(media.request.input.length, 0, price));
    } else {
      const bill = lastEventBill(tail);
      row.write(status, bill.usage ?? null, error, (price) => transcriptionCost(bill, price));
    }
  };
  const passed = (chunk: Uint8Array | null): Uint8Array | null => {
    if (chunk === null) {
      end(200, "");
      return null;
    }
    if (media.kind !== "speech") tail = (tail + decoder.decode(chunk, { stream: true })).slice(-TAIL_CHARS);
    return chunk;
  };
  /** The chunk read before answering, until the client takes it. */
  let held: Uint8Array | null | undefined = first;
  const source: ByteSource = {
    async next() {
      if (held !== undefined) {
        const chunk = held;
        held = undefined;
        return passed(chunk);
      }
      let chunk: Uint8Array | null;
      try {
        chunk = await body.read();
      } catch (error) {
        end(502, (error as Error).message);
        throw new Error(`the upstream's body broke: ${(error as Error).message}`);
      }
      return passed(chunk);
    },
    cancel(reason) {
      end(499, "client disconnected");
      body.cancel(reason);
    },
  };
  const contentType = outcome.header("content-type") ?? "application/octet-stream";
  deps.routing.succeed(row.accountId, row.prefix);
  // Binary bodies are summarised in the request log, never stored.
  const answer = bytesAnswer(contentType, source, warnings);
  return lifecycle.complete(answer, `(${contentType} passed through)`, streams(media));
}

/** The bill facts of a streamed transcription: its last JSON event that carries any. */
function lastEventBill(text: string): AudioBill {
  const lines = text.split("\n").filter((line) => line.startsWith("data:"));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const bill = transcriptionBill(JSON.parse(lines[i].slice(5)));
      if (bill.seconds !== undefined || bill.usage !== undefined) return bill;
    } catch { /* not JSON: keep looking */ }
  }
  // A whole JSON transcript passed through as text (response_format json with an odd content type).
  try {
    return transcriptionBill(JSON.parse(text));
  } catch {
    return {};
  }
}

/** The one usage row of a media attempt, priced in the kind's own unit. */
class MediaRow {
  readonly accountId: string;
  readonly prefix: string;
  readonly #deps: MediaDeps;
  readonly #input: MediaInput;
  readonly #attempt: Attempt;
  readonly #target: CallTarget;
  readonly #started: number;
  readonly #lifecycle: RequestLifecycle;
  readonly #span: AttemptTrace;
  /** Hands the row to the request log when it was promised before the request ended (see writtenLater). */
  #promised: ((row: UsageRow | Promise<UsageRow | null>) => void) | null = null;

  constructor(
    deps: MediaDeps,
    input: MediaInput,
    attempt: Attempt,
    target: CallTarget,
    started: number,
    lifecycle: RequestLifecycle,
    span: AttemptTrace,
  ) {
    this.#deps = deps;
    this.#lifecycle = lifecycle;
    this.#span = span;
    this.#input = input;
    this.#attempt = attempt;
    this.#target = target;
    this.#started = started;
    this.accountId = target.provider.id;
    this.prefix = target.provider.prefix;
  }

  /** The row will be written after the request has ended (a body passed through): the request log waits. */
  writtenLater(): void {
    this.#lifecycle.recorded(new Promise((resolve) => (this.#promised = resolve)));
  }

  /** The upstream's fault (an answer unreadable, not JSON, empty): the row says 502, and so does the error. */
  upstreamFault(message: string): GatewayError {
    this.write(502, null, message, () => 0);
    return new GatewayError(502, "upstream", message);
  }

  write(status: number, usage: Usage | null, error: string, cost: (price: Price | null) => number): void {
    const deps = this.#deps;
    const media = this.#input.media;
    const redacted = error === "" ? error : deps.control.redactor.redact(error);
    const row = deps.recorder.record({
      clientFormat: isImage(media) ? "images" : "audio",
      identity: this.#input.identity,
      request: placeholderRequest(media),
      routeModel: this.#attempt.routeModel,
      upstreamModel: this.#attempt.upstreamModel,
      providerId: this.#target.provider.rowId,
      accountId: this.#target.provider.id,
      status,
      // Media rows are priced per image, second or character: no token estimate is made for them.
      usage: usage ?? { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      latencyMs: deps.now() - this.#started,
      streamed: streams(media),
      error: redacted,
      cost,
    }, deps.now());
    const promised = this.#promised;
    const lifecycle = promised === null ? this.#lifecycle : { recorded: promised };
    kindAttemptEnded(lifecycle, this.#span, row, { status, error: redacted, usage });
  }
}
