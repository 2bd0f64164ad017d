import { detectClient, parseThinkingSuffix } from "../adjustments/mod.ts";
import type { RuntimeSettings } from "../config/runtime_settings.ts";
import { GatewayError, type NeutralRequest, orphanToolResult, type UpstreamFormat } from "../model/mod.ts";
import { isApiType } from "../config/api_types.ts";
import { presetFor } from "../executors/presets.ts";
import {
  type ActiveCooldown,
  allCoolingMessage,
  type Attempt,
  cacheAffinityKey,
  exhaustedMessage,
  kindOfModel,
  type ModelKind,
  type RoutingTable,
} from "../routing/mod.ts";
import { codecFor, quoteValue } from "../wire/mod.ts";
import { isRecord } from "../wire/shared/mod.ts";
import type { AttemptDeps, CallerContext, RouteSuccess } from "./attempt_context.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import type { RateGate } from "./rate_gate.ts";
import { admitRequest, checkAllowed } from "./admission.ts";
import { type Answer, jsonAnswer } from "./answer.ts";
import { type CompactionKind, serveCompaction } from "./compaction.ts";
import { countMessageTokens } from "./count_tokens.ts";
import { type FusionSettings, runFusion } from "./fusion.ts";
import { identityRoutingKey } from "./identity.ts";
import { type DispatchInput, type DispatchObserver, RequestLifecycle } from "./request_lifecycle.ts";
import { runAttempt } from "./run_attempt.ts";
import { withStandIns } from "./stand_ins.ts";
import { nextTurn } from "../next_turn.ts";
import { serveEmbeddings } from "./embeddings_dispatch.ts";
import { embeddingsCodecFor, type EmbeddingsDecodeContext } from "../wire/embeddings.ts";
import type { EmbeddingsFormat, RerankFormat } from "../model/mod.ts";
import { serveRerank } from "./rerank_dispatch.ts";
import { rerankCodecFor } from "../wire/rerank.ts";
import { decodeMedia, type MediaBody, mediaLogBody, serveMedia } from "./media_dispatch.ts";
import { attemptStart } from "./trace_facts.ts";
import type { RequestSpanSink } from "../telemetry/mod.ts";
import type { SaverService } from "./saver_service.ts";
import type { ResponseStore } from "./response_store.ts";

export { DEFAULT_TIMEOUTS, type UpstreamTimeouts } from "./attempt_context.ts";
export type { DispatchInput, DispatchObserver, RequestTrace } from "./request_lifecycle.ts";
export { responseEvents } from "./response_events.ts";
export type { Answer, AnswerBody, FrameSource } from "./answer.ts";
export type { CompactionKind } from "./compaction.ts";

/** What the dispatcher needs from the runtime. */
export interface DispatchDeps extends AttemptDeps {
  readonly table: () => RoutingTable;
  readonly budgets: BudgetGuard;
  readonly rateGate: RateGate;
  readonly savers: SaverService;
  readonly observers: readonly DispatchObserver[];
  /** Where each request's span and its attempts' spans go (telemetry; records nothing when it is off). */
  readonly spans: RequestSpanSink;
  /** The Responses API's stored responses (`previous_response_id`, `item_reference`); absent: stateless. */
  readonly responses?: ResponseStore;
}

/**
 * The request flow of the spec: decode → savers → budget → allowlist → (fusion) → attempts, each
 * adjusting, encoding, calling, classifying and falling back → translate the answer → record usage.
 * Errors leave as GatewayErrors and become responses at the HTTP boundary.
 */
export class Dispatcher {
  readonly #deps: DispatchDeps;
  #lastTraceId = 0;

  constructor(deps: DispatchDeps) {
    this.#deps = deps;
  }

  /** Handles one model request and returns the client's answer; observers hear about it once. */
  async handle(input: DispatchInput): Promise<Answer> {
    const lifecycle = this.#begin(input);
    const deps = this.#deps;
    try {
      const store = input.surface === "responses" ? deps.responses : undefined;
      if (store === undefined) return lifecycle.withRateHeaders(await this.#handle(input, lifecycle));
      // The request log keeps what the client sent; the upstream gets the conversation it stands for.
      const { body, resumeOn, longStrings } = await store.expand(
        input.body,
        input.identity,
        input.longStrings,
      );
      const resume = resumeOn === null ? undefined : { accountId: resumeOn, body: input.body };
      const expanded = body === input.body ? input : { ...input, body, longStrings };
      const answer = await this.#handle(expanded, lifecycle, resume);
      const answeredBy = () => {
        const accountId = lifecycle.trace.providerId;
        const apiType = deps.control.account(accountId)?.apiType;
        return {
          accountId,
          format: apiType !== undefined && isApiType(apiType) ? presetFor(apiType).format : null,
        };
      };
      return lifecycle.withRateHeaders(
        await store.keep(answer, body, input.identity, answeredBy, longStrings),
      );
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  /**
   * A Codex compaction (`/v1/responses/compact`, or a Responses body with a `compaction_trigger` item):
   * one request however many dispatches it takes (a native try, then the summary), so one lifecycle,
   * one trace and one request-log row.
   */
  async compact(input: DispatchInput, kind: CompactionKind): Promise<Answer> {
    const lifecycle = this.#begin(input);
    lifecycle.hold();
    try {
      const expanded = await this.#deps.responses?.expand(input.body, input.identity, input.longStrings);
      const body = expanded?.body ?? input.body;
      const longStrings = expanded?.longStrings ?? input.longStrings;
      const answer = await serveCompaction(
        {
          dispatch: (body) => this.#handle({ ...input, body, longStrings }, lifecycle),
          firstUpstreamFormat: (model) => this.firstUpstreamFormat(model),
        },
        body,
        kind,
      );
      const streamed = isRecord(input.body) && input.body.stream === true;
      if (answer.body.kind !== "json") {
        return lifecycle.withRateHeaders(lifecycle.complete(answer, "", streamed));
      }
      const text = answer.body.text ?? JSON.stringify(answer.body.value);
      return lifecycle.withRateHeaders(
        lifecycle.complete(jsonAnswer(answer.body.value, answer.warnings, text), text, streamed),
      );
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  #begin(input: DispatchInput): RequestLifecycle {
    return new RequestLifecycle(
      ++this.#lastTraceId,
      input,
      this.#deps.observers,
      this.#deps.now,
      this.#deps.control,
      this.#deps.spans,
    );
  }

  async #handle(input: DispatchInput, lifecycle: RequestLifecycle, resume?: Resume): Promise<Answer> {
    const deps = this.#deps;
    // Long base64 data URLs reach the codecs as stand-ins for their payloads (stand_ins.ts).
    const body = input.longStrings === undefined ? input.body : withStandIns(input.body, input.longStrings);
    const decoded = codecFor(input.surface, input.decode.endpoint).decodeRequest(body, input.decode);
    // A big body (parsed off the loop) is decoded, encoded and written on turns of their own: in one,
    // thousands of messages held the loop for 30-60 ms.
    if (input.longStrings !== undefined) await nextTurn();
    if (decoded.warnings !== undefined) lifecycle.warned(decoded.warnings);
    const orphan = orphanToolResult(decoded);
    if (orphan !== null) {
      throw new GatewayError(
        400,
        "invalid_request",
        `Tool result for unknown call id ${
          quoteValue(orphan)
        }: every tool result must answer an earlier tool call`,
      );
    }
    const suffix = parseThinkingSuffix(decoded.model);
    // Signatures and signed reasoning the client's format could not carry back are put in again here.
    const restored = deps.turnTokens.restore(decoded);
    let request: NeutralRequest = suffix.intent
      ? { ...restored, model: suffix.model, reasoning: { ...restored.reasoning, ...suffix.intent } }
      : restored;
    lifecycle.decoded(request, decoded.model);
    const settings = deps.control.settings;
    const table = deps.table();
    const admitted = admitRequest(deps, lifecycle, input.identity, input.surface, request, table);
    if (admitted instanceof Promise) await admitted;
    const saved = deps.savers.apply(request, settings, input.clientHeaders, {}, lifecycle.saverApplied);
    request = saved instanceof Promise ? await saved : saved;
    const caller: CallerContext = {
      surface: input.surface,
      identity: input.identity,
      clientHeaders: input.clientHeaders,
      clientKind: detectClient(input.clientHeaders),
      clientSignal: input.clientSignal,
      endpoint: input.decode.endpoint,
      listener: lifecycle,
      timing: input.timing,
      clientModel: decoded.model,
      answerId: lifecycle.trace.spanId,
      longStrings: input.longStrings,
    };
    const members = table.combos.get(request.model);
    const outcome = settings.combo_strategy === "fusion" && members !== undefined && members.length >= 2
      ? await runFusion({
        request,
        members,
        settings: fusionSettings(settings),
        signal: input.clientSignal(),
        routable: (model) => this.#routable(model),
        route: (r, signal) => this.#route({ ...caller, clientSignal: () => signal }, r, lifecycle),
        now: deps.now,
      })
      : await this.#route(caller, request, lifecycle, resume && resumed(resume, input, request));
    return lifecycle.answer(request, outcome);
  }

  /** Tries every attempt of `request.model` in order; throws the spec's 503s when none succeeds. */
  async #route(
    caller: CallerContext,
    request: NeutralRequest,
    lifecycle: RequestLifecycle,
    resumed?: { readonly accountId: string; readonly request: NeutralRequest },
  ): Promise<RouteSuccess> {
    const deps = this.#deps;
    const long = caller.longStrings;
    const cacheKey = deps.control.settings.server_cache_affinity
      ? cacheAffinityKey(request, long && ((text, chars) => long.head(text, chars)))
      : null;
    const plan = deps.routing.resolve(
      deps.table(),
      request.model,
      deps.control.settings,
      deps.now(),
      identityRoutingKey(caller.identity),
      cacheKey,
    );
    if (plan.kind === "unknown") throw new GatewayError(404, "not_found", plan.message);
    if (plan.kind === "all_cooling") {
      const message = allCoolingMessage(plan.model, plan.retryAfterSeconds);
      throw new GatewayError(503, "unavailable", message, {
        headers: { "retry-after": String(plan.retryAfterSeconds) },
        // The spec's detail stays exactly as it is; each account's cause goes beside it.
        fixedBody: {
          detail: message,
          accounts: coolingAccounts(deps.routing.active(deps.now()), plan.accounts),
        },
      });
    }
    const notChat = notChatModel(plan.attempts);
    if (notChat !== null) {
      // Every upstream would answer with its own 404 or 400: say what the model is for instead.
      throw new GatewayError(400, "invalid_request", `Model "${request.model}" is ${notChat}`);
    }
    let last: { providerId: string; message: string; reason: string } | null = null;
    for (const attempt of plan.attempts) {
      if (last !== null) {
        // A fallback: the client may have left while the failed attempt ran.
        if (caller.clientSignal().aborted) {
          throw new GatewayError(499, "client_closed", "client disconnected");
        }
        if (deps.routing.isCooling(attempt.account.id, deps.control.settings, deps.now())) continue;
      }
      const reason = last?.reason;
      const span = lifecycle.attempting(
        attempt.account.id,
        (index) => attemptStart(attempt, index, deps.control.account(attempt.account.id)?.baseUrl, reason),
      );
      // The account that stored the previous response continues it by id; any other gets the conversation.
      const sent = resumed?.accountId === attempt.account.id ? resumed.request : request;
      const outcome = await runAttempt(deps, caller, sent, attempt, span);
      if (outcome.kind !== "failure") {
        if (cacheKey !== null) {
          deps.routing.bindCache(
            cacheKey,
            attempt.account.prefix,
            attempt.account.id,
            deps.control.settings,
            deps.now(),
          );
        }
        return outcome;
      }
      last = {
        providerId: attempt.account.id,
        message: outcome.message,
        reason: outcome.classification.cooldownKind ?? "failed",
      };
    }
    const message = exhaustedMessage(last?.providerId ?? "none", last?.message ?? "no attempt could be made");
    throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
  }

  /**
   * An images or audio request (`/v1/images/*`, `/v1/audio/*`): one lifecycle like a chat request, so one
   * trace and one request-log row (binary bodies summarised), through src/gateway/media_dispatch.ts.
   */
  async media(
    input: Omit<DispatchInput, "body" | "decode" | "logSurface">,
    body: MediaBody,
  ): Promise<Answer> {
    const lifecycle = this.#begin({
      ...input,
      body: mediaLogBody(body),
      decode: { endpoint: body.kind },
      logSurface: body.kind === "image_generation" || body.kind === "image_edit" ? "images" : "audio",
    });
    try {
      const media = decodeMedia(body);
      return lifecycle.withRateHeaders(await serveMedia(this.#deps, { ...input, media }, lifecycle));
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  /**
   * An embeddings request (`/v1/embeddings`, Gemini `:embedContent`/`:batchEmbedContents`, `/api/embed`,
   * `/api/embeddings`) in its client's format: one lifecycle, through src/gateway/embeddings_dispatch.ts.
   */
  async embeddings(
    input: Omit<DispatchInput, "body" | "decode" | "logSurface">,
    body: unknown,
    format: EmbeddingsFormat,
    decode: EmbeddingsDecodeContext,
  ): Promise<Answer> {
    const lifecycle = this.#begin({ ...input, body, decode: {}, logSurface: "embeddings" });
    try {
      const request = embeddingsCodecFor(format).decodeRequest(body, decode);
      const endpoint = decode.endpoint ?? "embeddings";
      return lifecycle.withRateHeaders(
        await serveEmbeddings(this.#deps, { ...input, request, endpoint }, lifecycle),
      );
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  /**
   * A rerank request (`/v1/rerank` in Cohere v1 / Jina shape, `/v2/rerank` in Cohere v2 shape): one lifecycle,
   * through src/gateway/rerank_dispatch.ts.
   */
  async rerank(
    input: Omit<DispatchInput, "body" | "decode" | "logSurface">,
    body: unknown,
    format: RerankFormat,
  ): Promise<Answer> {
    const lifecycle = this.#begin({ ...input, body, decode: {}, logSurface: "rerank" });
    try {
      const request = rerankCodecFor(format).decodeRequest(body);
      return lifecycle.withRateHeaders(await serveRerank(this.#deps, { ...input, request }, lifecycle));
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  /**
   * `POST /v1/messages/count_tokens`: the input tokens of a messages body (see countMessageTokens), as
   * `{input_tokens}`. A request like any other: one lifecycle, one trace, one request-log row.
   */
  async countTokens(input: DispatchInput): Promise<Answer> {
    const lifecycle = this.#begin(input);
    try {
      const deps = this.#deps;
      const model = isRecord(input.body) && typeof input.body.model === "string" ? input.body.model : "";
      const table = deps.table();
      checkAllowed(input.identity, model, table);
      const plan = deps.routing.peek(table, model, deps.control.settings, deps.now());
      const attempt = plan.kind === "attempts" ? plan.attempts[0] : undefined;
      const tokens = await countMessageTokens(
        deps,
        input.body,
        attempt,
        input.clientHeaders,
        input.clientSignal,
        input.longStrings,
      );
      const value = { input_tokens: tokens };
      const text = JSON.stringify(value);
      return lifecycle.complete(jsonAnswer(value, [], text), text, false);
    } catch (error) {
      throw lifecycle.failed(error);
    }
  }

  /**
   * The wire format of the upstream `model` would be tried on first (no state change), or null when
   * nothing can be tried: compaction passes through to a Responses upstream and is made here otherwise.
   */
  firstUpstreamFormat(model: string): UpstreamFormat | null {
    const deps = this.#deps;
    const plan = deps.routing.peek(deps.table(), model, deps.control.settings, deps.now());
    if (plan.kind !== "attempts" || plan.attempts.length === 0) return null;
    const apiType = plan.attempts[0].account.apiType;
    return isApiType(apiType) ? presetFor(apiType).format : null;
  }

  /** True when a model resolves to at least one account that is not cooling (no state change). */
  #routable(model: string): boolean {
    const deps = this.#deps;
    const plan = deps.routing.peek(deps.table(), model, deps.control.settings, deps.now());
    return plan.kind === "attempts" && plan.attempts.length > 0;
  }
}

/** The client's own body, for the account that stored the previous response (see ResponseStore.expand). */
interface Resume {
  readonly accountId: string;
  readonly body: unknown;
}

/**
 * The client's own body decoded for the account that stored the previous response: only the new input,
 * with `previous_response_id` riding in the Responses extra to that upstream. It routes as the expanded
 * request does (model, reasoning intent).
 */
function resumed(
  resume: Resume,
  input: DispatchInput,
  request: NeutralRequest,
): { accountId: string; request: NeutralRequest } {
  const own = codecFor(input.surface, input.decode.endpoint).decodeRequest(resume.body, input.decode);
  const { reasoning } = request;
  return {
    accountId: resume.accountId,
    request: { ...own, model: request.model, ...(reasoning ? { reasoning } : {}) },
  };
}

/** Where each kind a chat surface cannot serve is served, as the 400 says it. */
const NOT_CHAT: Readonly<Partial<Record<ModelKind, string>>> = {
  embedding: "an embedding model: send it to the embeddings endpoint " +
    "(/v1/embeddings, :embedContent or :batchEmbedContents, /api/embed)",
  rerank: "a rerank model: send it to the rerank endpoint (/v1/rerank or /v2/rerank)",
};

/** Why no planned attempt can answer a chat request: every one is the same non-chat kind (else null). */
function notChatModel(attempts: readonly Attempt[]): string | null {
  if (attempts.length === 0) return null;
  const kind = kindOfModel(attempts[0].upstreamModel, attempts[0].account.kinds);
  const why = NOT_CHAT[kind];
  if (why === undefined) return null;
  return attempts.every((a) => kindOfModel(a.upstreamModel, a.account.kinds) === kind) ? why : null;
}

function fusionSettings(settings: RuntimeSettings): FusionSettings {
  return {
    judge: settings.combo_fusion_judge,
    minPanel: settings.combo_fusion_min_panel,
    graceMs: settings.combo_fusion_straggler_grace_s * 1000,
    hardTimeoutMs: settings.combo_fusion_hard_timeout_s * 1000,
  };
}

/** One cooling account as the all-cooling 503 lists it (times in epoch ms; the cause when known). */
interface CoolingAccount {
  readonly account_id: string;
  readonly until: number;
  readonly kind: string | null;
  readonly status?: number;
  readonly message?: string;
  readonly since?: number;
}

/** The model's accounts that are cooling, soonest back first, with why (redacted later with the body). */
function coolingAccounts(active: readonly ActiveCooldown[], accounts: readonly string[]): CoolingAccount[] {
  const wanted = new Set(accounts);
  return active.filter((c) => wanted.has(c.accountId)).map((c) => ({
    account_id: c.accountId,
    until: c.untilMs,
    kind: c.kind,
    ...(c.cause === undefined
      ? {}
      : { status: c.cause.status, message: c.cause.message, since: c.cause.sinceMs }),
  }));
}
