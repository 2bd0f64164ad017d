/**
 * The plan → servable attempts → attempt loop shared by the non-chat kinds (media, embeddings): the same
 * routing, cooldowns and fallback as chat, with each kind deciding which targets can serve it and how one
 * attempt runs. A kind's attempt returns an answer, or a failure that lets the next target try.
 */
import { GatewayError } from "../model/mod.ts";
import {
  allCoolingMessage,
  type Attempt,
  classifyUpstreamFailure,
  exhaustedMessage,
  type RoutingTable,
} from "../routing/mod.ts";
import { readUpstreamError } from "../wire/shared/mod.ts";
import type { Answer } from "./answer.ts";
import type { AttemptDeps } from "./attempt_context.ts";
import type { AdmissionDeps } from "./admission.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import { type CallTarget, callTarget, type TraceHeaders } from "./prepare_call.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";
import { attemptStart } from "./trace_facts.ts";
import type { UsageRow } from "../storage/mod.ts";
import type { Usage } from "../model/mod.ts";
import { callUpstream, type UpstreamOutcome, type UpstreamRequest } from "../executors/call_upstream.ts";
import type { RequestTiming } from "./request_timing.ts";
import { upstreamErrorKind } from "./upstream_error_kind.ts";
import { jsonRequestBody } from "./sliced_json.ts";
import type { LongStrings } from "../long_strings.ts";

/** What a non-chat kind's flow needs from the runtime (the dispatcher's own deps). */
export interface KindDeps extends AttemptDeps, AdmissionDeps {
  readonly table: () => RoutingTable;
}

/** A failed attempt the next target may retry. */
export interface KindFailure {
  readonly kind: "failure";
  readonly message: string;
  /** Why the next attempt is a fallback (the cooldown kind, or `failed`), for its span. */
  readonly reason: string;
}

/** One attempt's end: the client's answer, or a failure the next target may retry. */
export type KindAttemptResult = { readonly kind: "answer"; readonly answer: Answer } | KindFailure;

/** An upstream answer with a success status. */
export type UpstreamResponse = Extract<UpstreamOutcome, { kind: "response" }>;

/** Upstream error bodies are read up to this size for classification and messages. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** How one kind is served: which targets can, why none could, and one attempt. */
export interface KindServing {
  readonly model: string;
  readonly identity: ClientIdentity;
  readonly clientSignal: () => AbortSignal;
  /** Whether this target (its API type and upstream model) can serve the request. */
  canServe(attempt: Attempt, target: CallTarget): boolean;
  /** The 400's reason when no planned target can serve it (the first planned attempt is given). */
  whyNone(first: Attempt | undefined): string;
  /** One attempt; `span` is its trace span (its `headers` go upstream; the attempt ends it). */
  run(attempt: Attempt, target: CallTarget, span: AttemptTrace): Promise<KindAttemptResult>;
}

/** Plans `serving.model` and runs its servable attempts in plan order until one answers. */
export async function serveKindAttempts(
  deps: AttemptDeps,
  table: RoutingTable,
  serving: KindServing,
  lifecycle: RequestLifecycle,
): Promise<Answer> {
  const plan = deps.routing.resolve(
    table,
    serving.model,
    deps.control.settings,
    deps.now(),
    identityRoutingKey(serving.identity),
    null,
  );
  if (plan.kind === "unknown") throw new GatewayError(404, "not_found", plan.message);
  if (plan.kind === "all_cooling") {
    const message = allCoolingMessage(plan.model, plan.retryAfterSeconds);
    throw new GatewayError(503, "unavailable", message, {
      headers: { "retry-after": String(plan.retryAfterSeconds) },
      fixedBody: { detail: message },
    });
  }
  const servable = plan.attempts.filter((a) => {
    const target = callTarget(deps, a);
    return target !== null && serving.canServe(a, target);
  });
  if (servable.length === 0) {
    throw new GatewayError(400, "invalid_request", serving.whyNone(plan.attempts[0]));
  }
  let last: { providerId: string; message: string; reason: string } | null = null;
  for (const attempt of servable) {
    if (last !== null) {
      if (serving.clientSignal().aborted) throw new GatewayError(499, "client_closed", "client disconnected");
      if (deps.routing.isCooling(attempt.account.id, deps.control.settings, deps.now())) continue;
    }
    const target = callTarget(deps, attempt);
    if (target === null) continue;
    const reason = last?.reason;
    const span = lifecycle.attempting(
      attempt.account.id,
      (index) => attemptStart(attempt, index, target.provider.baseUrl, reason),
    );
    const result = await serving.run(attempt, target, span);
    if (result.kind === "answer") return result.answer;
    last = { providerId: attempt.account.id, message: result.message, reason: result.reason };
  }
  const message = exhaustedMessage(last?.providerId ?? "none", last?.message ?? "no attempt could be made");
  throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
}

/**
 * One upstream call of a non-chat attempt, its failures handled alike for every kind: a client that left is
 * a 499 (thrown); a full pool, a network failure or a retryable status cools the account down and lets the
 * next target try; any other status is the client's own error at once, as the upstream worded it. Each
 * failure writes the attempt's row through `failedRow` (status 0: no answer). Only a success comes back.
 */
export async function callKindUpstream(
  deps: AttemptDeps,
  call: UpstreamRequest,
  target: CallTarget,
  timing: RequestTiming,
  failedRow: (status: number, message: string) => void,
): Promise<UpstreamResponse | KindFailure> {
  const outcome = await timing.waitFor(callUpstream(call));
  const account = target.provider.id;
  if (outcome.kind === "cancelled") {
    failedRow(499, "client disconnected");
    throw new GatewayError(499, "client_closed", "client disconnected before the upstream answered");
  }
  if (outcome.kind === "overloaded") {
    failedRow(503, outcome.message);
    return { kind: "failure", message: outcome.message, reason: "overloaded" };
  }
  if (outcome.kind === "network") {
    const message = `${outcome.reason}: ${outcome.message}`;
    failedRow(0, message);
    const classification = classifyUpstreamFailure({ kind: "network", reason: outcome.reason });
    deps.routing.fail(account, classification, message, deps.control.settings, deps.now(), 0);
    return { kind: "failure", message, reason: classification.cooldownKind ?? "failed" };
  }
  if (outcome.status < 400) return outcome;
  const text = await outcome.readText(ERROR_BODY_LIMIT);
  const classification = classifyUpstreamFailure({
    kind: "status",
    status: outcome.status,
    bodyText: text,
    retryAfterHeader: outcome.header("retry-after"),
    now: deps.now(),
    headers: outcome.header,
  });
  const message = deps.control.redactor.redact(
    `HTTP ${outcome.status}: ${text.replace(/\s+/g, " ").trim().slice(0, 300)}`,
  );
  failedRow(outcome.status, message);
  deps.routing.fail(account, classification, message, deps.control.settings, deps.now(), outcome.status);
  if (classification.fallback) {
    return { kind: "failure", message, reason: classification.cooldownKind ?? "failed" };
  }
  const said = readUpstreamError(text) ?? undefined;
  throw new GatewayError(outcome.status, upstreamErrorKind(outcome.status), said?.message ?? message, {
    upstreamBody: message,
  });
}

/** What every non-chat call to an account shares: its client, the client's signal and the deadlines. */
export function upstreamCallBase(deps: AttemptDeps, target: CallTarget, clientSignal: () => AbortSignal) {
  const { provider } = target;
  return {
    client: deps.clients.get(provider.clientId, `${provider.baseUrl}|${provider.apiType}`),
    clientSignal,
    headersTimeoutMs: deps.timeouts.headersMs,
    idleTimeoutMs: deps.timeouts.idleMs,
  };
}

/**
 * A JSON POST of `body` to `url` on the account, with the account's auth headers and the attempt's trace;
 * `longStrings`: the pieces the client's body held its long strings in (src/long_strings.ts).
 */
export async function jsonUpstreamCall(
  deps: AttemptDeps,
  target: CallTarget,
  clientSignal: () => AbortSignal,
  url: string,
  body: unknown,
  trace: TraceHeaders,
  longStrings?: LongStrings,
): Promise<UpstreamRequest> {
  return {
    ...upstreamCallBase(deps, target, clientSignal),
    url,
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...target.preset.authHeaders(target.provider.apiKey),
      ...trace,
    },
    // A long input (a big text to embed) is encoded a slice per turn (sliced_json.ts).
    body: await jsonRequestBody(body, longStrings),
  };
}

/**
 * The end of a non-chat attempt, once its usage row is written: the row joins the request log's attempt
 * chain and the attempt span ends with the outcome (later ends are ignored).
 */
export function kindAttemptEnded(
  lifecycle: Pick<RequestLifecycle, "recorded">,
  span: AttemptTrace,
  row: UsageRow | Promise<UsageRow | null>,
  outcome: { readonly status: number; readonly error: string; readonly usage: Usage | null },
): void {
  lifecycle.recorded(row);
  const failed = outcome.status < 200 || outcome.status >= 300;
  span.end({
    httpStatus: outcome.status === 0 ? undefined : outcome.status,
    error: failed
      ? { type: outcome.status === 0 ? "network" : String(outcome.status), message: outcome.error }
      : undefined,
    usage: outcome.usage ?? undefined,
  });
}
