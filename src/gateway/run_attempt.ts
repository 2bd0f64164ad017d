import { BodyTooLargeError, callUpstream, type UpstreamOutcome } from "../executors/call_upstream.ts";
import { RefreshError } from "../executors/oauth/mod.ts";
import {
  GatewayError,
  type NeutralRequest,
  type NeutralResponse,
  type UpstreamErrorInfo,
  type UpstreamFormat,
} from "../model/mod.ts";
import type { Redactor } from "../security/redact.ts";
import { readUpstreamError } from "../wire/shared/mod.ts";
import { requestTexts } from "../accounting/mod.ts";
import { type Attempt, classifyUpstreamFailure, type FailureClassification } from "../routing/mod.ts";
import type { AttemptDeps, AttemptOutcome, CallerContext } from "./attempt_context.ts";
import { AttemptRecord } from "./attempt_record.ts";
import { encodeContext } from "./encode_answer.ts";
import { callTarget, prepareCall, type PreparedCall } from "./prepare_call.ts";
import { streamAttempt } from "./stream_attempt.ts";
import { collectStream } from "./collect_attempt.ts";
import { upstreamErrorKind } from "./upstream_error_kind.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";

/** Upstream error bodies are read up to this size for classification and messages. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** A network failure, a timeout or a status from the upstream, as one classified failure. */
type Failure = {
  readonly status: number;
  readonly message: string;
  readonly classification: FailureClassification;
  /** What the upstream said in its error body, when it used a known shape. */
  readonly upstreamError?: UpstreamErrorInfo;
};

/**
 * One try against one account: prepare the call, make it, classify a failure (cooling the account and
 * recording its usage row), and return a neutral answer or a committed stream. Non-fallback upstream
 * errors are thrown as GatewayErrors of the upstream's own kind: the client sees them at once.
 */
export async function runAttempt(
  deps: AttemptDeps,
  caller: CallerContext,
  original: NeutralRequest,
  attempt: Attempt,
  span: AttemptTrace,
  retriedEndpoint = false,
): Promise<AttemptOutcome> {
  const target = callTarget(deps, attempt);
  if (target === null) {
    const message = `account "${attempt.account.id}" is no longer configured`;
    span.end({ error: { type: "gone", message } });
    return {
      kind: "failure",
      message,
      classification: { fallback: true, cooldownKind: null, retryAfterMs: null },
    };
  }
  const record = new AttemptRecord(deps, caller, original, attempt, target.provider, span);
  const fail = (failure: Failure): AttemptOutcome => {
    const { status, classification } = failure;
    // Upstream text can repeat the key it was sent: the usage row, cooldown and client must not get it.
    const message = deps.control.redactor.redact(failure.message);
    record.failed(status, message, classification.cooldownKind !== null);
    deps.routing.fail(target.provider.id, classification, message, deps.control.settings, deps.now(), status);
    if (!classification.fallback) {
      // The client gets the upstream's own sentence (and type, code, param where its envelope has them),
      // not its JSON escaped inside a string; the usage row and log keep the whole text.
      const said = failure.upstreamError;
      const upstreamError = said === undefined ? undefined : redactedError(said, deps.control.redactor);
      throw new GatewayError(status, upstreamErrorKind(status), upstreamError?.message ?? message, {
        upstreamBody: message,
        upstreamError,
      });
    }
    return { kind: "failure", message, classification };
  };
  let prepared: PreparedCall;
  try {
    const preparing = prepareCall(deps, caller, original, attempt, target, span.headers);
    prepared = preparing instanceof Promise ? await preparing : preparing;
  } catch (error) {
    // A stored credential this account cannot use (refresh failed, broken blob): its auth failure.
    const unusable = error instanceof RefreshError ||
      (error instanceof GatewayError && error.kind === "authentication");
    if (!unusable) throw error;
    // No usable subscription credential: an auth failure of this account (300 s), the next one is tried.
    const classification = { fallback: true, cooldownKind: "auth" as const, retryAfterMs: null };
    return fail({ status: 401, message: error.message, classification });
  }
  deps.routing.quota.attempted(target.provider.id, deps.now());
  // Counted in the worker while the upstream starts answering (see streamInputTokens).
  const inputCount = streamInputTokens(deps, caller, prepared, target.preset.format);
  const outcome = await caller.timing.waitFor(callHosts(prepared));
  if (outcome.kind === "response") deps.routing.quota.observe(target.provider.id, outcome.header, deps.now());
  const clientLeft = () => {
    record.failed(499, "client disconnected");
    return new GatewayError(499, "client_closed", "client disconnected before the upstream answered");
  };
  if (outcome.kind === "cancelled") throw clientLeft();
  if (outcome.kind === "overloaded") {
    // The account is busy, not broken: the next one is tried and this one is not cooled down.
    record.failed(503, outcome.message);
    return {
      kind: "failure",
      message: outcome.message,
      classification: { fallback: true, cooldownKind: null, retryAfterMs: null },
    };
  }
  if (outcome.kind === "network") {
    const classification = classifyUpstreamFailure({ kind: "network", reason: outcome.reason });
    return fail({ status: 0, message: `${outcome.reason}: ${outcome.message}`, classification });
  }
  if (outcome.status >= 400) {
    if (outcome.status === 401) deps.subscriptions.rejected(target.provider);
    const failure = await caller.timing.waitFor(statusFailure(deps, outcome));
    // Copilot serves some models only on /responses or /v1/messages: learn it and call the model there.
    if (
      !retriedEndpoint &&
      deps.subscriptions.wrongEndpoint(target.provider, attempt.upstreamModel, failure.message)
    ) {
      return runAttempt(deps, caller, original, attempt, span, true);
    }
    return fail(failure);
  }
  const contentType = outcome.header("content-type") ?? "";
  const jsonAnswer = contentType.includes("json") && !contentType.includes("ndjson");
  if (prepared.collect && !jsonAnswer) {
    const collected = await caller.timing.waitFor(
      collectAnswer(deps, prepared, outcome, attempt.upstreamModel),
    );
    if (collected === CLIENT_LEFT) throw clientLeft();
    if (!("parts" in collected)) return fail(collected);
    record.answered(collected);
    caller.listener.warned(prepared.warnings);
    return { kind: "answer", response: collected };
  }
  if (!prepared.request.stream || jsonAnswer) {
    const text = await caller.timing.waitFor(readAnswer(outcome, deps.limits.maxAnswerBytes, record));
    if (outcome.clientGone()) throw clientLeft();
    const decoded = decodeAnswer(prepared, prepared.codec.format, text);
    if (!("parts" in decoded)) return fail(decoded);
    record.answered(decoded);
    deps.turnTokens.capture(decoded.parts);
    caller.listener.warned(prepared.warnings);
    return { kind: "answer", response: decoded };
  }
  // Usually settled already: the worker counts while the upstream works on its first token.
  const inputTokens = await inputCount;
  const ctx = {
    ...encodeContext(caller.clientModel, caller.endpoint, deps.now(), caller.answerId),
    inputTokens,
  };
  const started = await streamAttempt(deps, caller, prepared.codec, ctx, outcome.body(), record);
  if (started.kind === "failed") return fail(badGateway(started.message, started.message));
  caller.listener.warned(prepared.warnings);
  return { kind: "stream", frames: started.frames };
}

/**
 * The request's input tokens, for a messages client's stream from an upstream that reports usage only at
 * its end: message_start names the input before that, and Claude Code reads it there. Undefined for any
 * other stream (the upstream's own count comes first) and when the count fails (the usage row still gets
 * the upstream's figure).
 */
function streamInputTokens(
  deps: AttemptDeps,
  caller: CallerContext,
  prepared: PreparedCall,
  upstream: UpstreamFormat,
): Promise<number | undefined> | undefined {
  if (caller.surface !== "messages" || !prepared.request.stream) return undefined;
  if (upstream === "messages" || upstream === "generate_content") return undefined;
  const { texts, fixed } = requestTexts(prepared.request);
  return deps.counter.count(texts, caller.longStrings).then((tokens) => fixed + tokens, () => undefined);
}

/**
 * The whole answer body. One over the size limit is a 502 for the client at once, without fallback or
 * cooldown: its size comes from what was asked (another account would write as much again), and
 * reading stopped at the limit, so memory stays bounded.
 */
async function readAnswer(
  outcome: Extract<UpstreamOutcome, { kind: "response" }>,
  maxBytes: number,
  record: AttemptRecord,
): Promise<string> {
  try {
    return await outcome.readAnswer(maxBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    record.failed(502, error.message);
    throw new GatewayError(502, "upstream", error.message);
  }
}

/** An upstream error status, classified from its body and Retry-After. */
async function statusFailure(
  deps: AttemptDeps,
  outcome: Extract<UpstreamOutcome, { kind: "response" }>,
): Promise<Failure> {
  const text = await outcome.readText(ERROR_BODY_LIMIT);
  const classification = classifyUpstreamFailure({
    kind: "status",
    status: outcome.status,
    bodyText: text,
    retryAfterHeader: outcome.header("retry-after"),
    now: deps.now(),
    headers: outcome.header,
  });
  const upstreamError = readUpstreamError(text) ?? undefined;
  return {
    status: outcome.status,
    message: `HTTP ${outcome.status}: ${summarize(text)}`,
    classification,
    ...(upstreamError === undefined ? {} : { upstreamError }),
  };
}

/** The upstream's error with every string cleared of credentials (upstream text can repeat the key). */
function redactedError(error: UpstreamErrorInfo, redactor: Redactor): UpstreamErrorInfo {
  const clean = (text: string | undefined) => text === undefined ? undefined : redactor.redact(text);
  return {
    message: redactor.redact(error.message),
    ...(error.type === undefined ? {} : { type: clean(error.type) }),
    ...(error.code === undefined ? {} : { code: clean(error.code) }),
    ...(error.param === undefined ? {} : { param: clean(error.param) }),
  };
}

/** A whole upstream body as a neutral answer, or the 502 failure it is (not the format, or empty). */
function decodeAnswer(prepared: PreparedCall, format: string, text: string): NeutralResponse | Failure {
  let response: NeutralResponse;
  const decode = prepared.codec.decodeResponse;
  if (decode === undefined) {
    return badGateway(
      `upstream sent JSON where a ${format} event stream was expected: ${summarize(text)}`,
      text,
    );
  }
  try {
    response = decode(JSON.parse(text));
  } catch (error) {
    const message = error instanceof GatewayError
      ? error.message
      : `upstream sent a body that is not ${format} JSON: ${summarize(text)}`;
    return badGateway(message, text);
  }
  return isEmptyAnswer(response) ? badGateway("upstream returned an empty answer", "") : response;
}

/** A 502 failure classified like an upstream 502 with this body. */
function badGateway(message: string, bodyText: string): Failure {
  return {
    status: 502,
    message,
    classification: classifyUpstreamFailure({ kind: "status", status: 502, bodyText }),
  };
}

function summarize(text: string): string {
  const compact = text.replace(/\s+/g, " ").trim();
  return compact.length > 300 ? `${compact.slice(0, 300)}…` : compact || "(empty body)";
}

/** An answer with nothing in it is a failure, unless the upstream says why (length, filter). */
function isEmptyAnswer(response: NeutralResponse): boolean {
  const hasContent = response.parts.some((p) =>
    p.kind === "toolCall" || (p.kind === "text" && p.text !== "") ||
    (p.kind === "reasoning" && (p.text !== "" || !!p.redactedData))
  );
  return !hasContent && response.finish.unified !== "length" && response.finish.unified !== "content_filter";
}

/**
 * Calls the prepared hosts in order: an answer whose status the kind fails over on (a 429 from one quota
 * pool, a 403 from a host that refuses the origin) moves on to the next host; the last host's answer stands.
 */
async function callHosts(prepared: PreparedCall): Promise<UpstreamOutcome> {
  let outcome = await callUpstream(prepared.call);
  for (const next of prepared.nextHosts) {
    if (outcome.kind !== "response" || !prepared.failover(outcome.status)) return outcome;
    await outcome.readText(ERROR_BODY_LIMIT);
    outcome = await callUpstream(next);
  }
  return outcome;
}

/** The client left while a stream was being collected for it. */
const CLIENT_LEFT = Symbol("client left");

/** A streamed answer collected into one response, or the failure it was (an error event, no content). */
async function collectAnswer(
  deps: AttemptDeps,
  prepared: PreparedCall,
  outcome: Extract<UpstreamOutcome, { kind: "response" }>,
  model: string,
): Promise<NeutralResponse | Failure | typeof CLIENT_LEFT> {
  const collected = await collectStream(prepared.codec, outcome.body(), deps.limits, model);
  if (!("parts" in collected) && collected.readFailed && outcome.clientGone()) return CLIENT_LEFT;
  if ("parts" in collected) {
    return isEmptyAnswer(collected) ? badGateway("upstream returned an empty answer", "") : collected;
  }
  const classification = classifyUpstreamFailure({
    kind: "status",
    status: collected.status,
    bodyText: collected.message,
  });
  return { status: collected.status, message: collected.message, classification };
}
