import { detectClient, parseThinkingSuffix } from "../adjustments/mod.ts";
import type { RuntimeSettings } from "../config/runtime_settings.ts";
import { GatewayError, type NeutralRequest, orphanToolResult, type WireFormat } from "../model/mod.ts";
import { allCoolingMessage, exhaustedMessage, isModelAllowed, type RoutingTable } from "../routing/mod.ts";
import { codecFor, type DecodeContext } from "../wire/mod.ts";
import {
  type AttemptDeps,
  type AttemptOutcome,
  type CallerContext,
  encodeContext,
  outputTextOf,
  responseEvents,
  runAttempt,
  streamResponse,
} from "./attempt.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import { type FusionSettings, runFusion } from "./fusion.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import type { SaverService } from "./saver_service.ts";

export { DEFAULT_TIMEOUTS, responseEvents, type UpstreamTimeouts } from "./attempt.ts";

/** One client request as the HTTP layer hands it over. */
export interface DispatchInput {
  readonly surface: WireFormat;
  readonly body: unknown;
  readonly decode: DecodeContext;
  readonly identity: ClientIdentity;
  readonly clientHeaders: Headers;
  /**
   * The client connection's signal, aborted when the client goes away. A function because watching a
   * connection costs something per request: it is asked for only where a disconnect matters (long
   * upstream calls, streams, fallbacks, fusion).
   */
  readonly clientSignal: () => AbortSignal;
}

/** What one request did, reported once when it is over (request logs, live usage). */
export interface RequestTrace {
  /** Numbers requests in arrival order (1, 2, …) for the life of the process; links start and finish. */
  readonly id: number;
  readonly input: DispatchInput;
  readonly startedAt: number;
  model: string;
  providerId: string;
  status: number;
  streamed: boolean;
  /** The answer as sent to the client (non-stream JSON text, or the streamed output text). */
  responseBody: string;
  error: string;
  latencyMs: number;
}

/** Watches requests: the dashboard's in-flight count, live events and request logs hang off this. */
export interface DispatchObserver {
  started(trace: RequestTrace): void;
  finished(trace: RequestTrace): void;
}

/** What the dispatcher needs from the runtime. */
export interface DispatchDeps extends AttemptDeps {
  readonly table: () => RoutingTable;
  readonly budgets: BudgetGuard;
  readonly savers: SaverService;
  readonly observers: readonly DispatchObserver[];
}

/** A neutral answer or a committed stream: what a successful route produces. */
type RouteSuccess = Exclude<AttemptOutcome, { kind: "failure" }>;

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

  /** Handles one model request and returns the client's response; observers hear about it once. */
  async handle(input: DispatchInput): Promise<Response> {
    const deps = this.#deps;
    const trace: RequestTrace = {
      id: ++this.#lastTraceId,
      input,
      startedAt: deps.now(),
      model: modelOf(input),
      providerId: "",
      status: 0,
      streamed: false,
      responseBody: "",
      error: "",
      latencyMs: 0,
    };
    const finish = () => {
      trace.latencyMs = deps.now() - trace.startedAt;
      for (const observer of deps.observers) observer.finished(trace);
    };
    for (const observer of deps.observers) observer.started(trace);
    let deferred = false;
    try {
      const response = await this.#handle(input, trace, () => {
        deferred = true;
        return finish;
      });
      if (!deferred) finish();
      return response;
    } catch (error) {
      trace.status = error instanceof GatewayError ? error.status : 500;
      trace.error = error instanceof Error ? error.message : String(error);
      finish();
      throw error;
    }
  }

  async #handle(input: DispatchInput, trace: RequestTrace, defer: () => () => void): Promise<Response> {
    const deps = this.#deps;
    const decoded = codecFor(input.surface).decodeRequest(input.body, input.decode);
    const orphan = orphanToolResult(decoded);
    if (orphan !== null) {
      throw new GatewayError(
        400,
        "invalid_request",
        `Tool result for unknown call id "${orphan}": every tool result must answer an earlier tool call`,
      );
    }
    const suffix = parseThinkingSuffix(decoded.model);
    let request: NeutralRequest = suffix.intent
      ? { ...decoded, model: suffix.model, reasoning: { ...decoded.reasoning, ...suffix.intent } }
      : decoded;
    trace.model = request.model;
    trace.streamed = request.stream;
    const settings = deps.control.settings;
    deps.budgets.check(input.identity.kind === "db" ? input.identity.keyId : null, deps.now());
    const table = deps.table();
    if (
      input.identity.kind === "db" && input.identity.allowedModels.length > 0 &&
      !isModelAllowed(input.identity.allowedModels, request.model, table)
    ) {
      throw new GatewayError(
        403,
        "model_not_allowed",
        `This API key is not allowed to use model "${request.model}"`,
      );
    }
    const saved = deps.savers.apply(request, settings, input.clientHeaders);
    request = saved instanceof Promise ? await saved : saved;
    const caller: CallerContext = {
      surface: input.surface,
      identity: input.identity,
      clientHeaders: input.clientHeaders,
      clientKind: detectClient(input.clientHeaders),
      clientSignal: input.clientSignal,
      endpoint: input.decode.endpoint,
      onStreamCommitted: () => {
        const finish = defer();
        return (summary) => {
          const ok = summary.end === "completed" && summary.error === null;
          trace.status = ok ? 200 : summary.end === "cancelled" ? 499 : 502;
          trace.responseBody = summary.outputText;
          trace.error = summary.error ?? (summary.end === "cancelled" ? "client disconnected" : "");
          finish();
        };
      },
    };
    const members = table.combos.get(request.model);
    const outcome = settings.combo_strategy === "fusion" && members !== undefined && members.length >= 2
      ? await runFusion({
        request,
        members,
        settings: fusionSettings(settings),
        signal: input.clientSignal(),
        routable: (model) => this.#routable(model),
        route: (r, signal) => this.#route({ ...caller, clientSignal: () => signal }, r, trace),
        now: deps.now,
      })
      : await this.#route(caller, request, trace);
    return this.#respond(caller, request, outcome, trace);
  }

  /** Tries every attempt of `request.model` in order; throws the spec's 503s when none succeeds. */
  async #route(caller: CallerContext, request: NeutralRequest, trace: RequestTrace): Promise<RouteSuccess> {
    const deps = this.#deps;
    const plan = deps.routing.resolve(
      deps.table(),
      request.model,
      deps.control.settings,
      deps.now(),
      identityRoutingKey(caller.identity),
    );
    if (plan.kind === "unknown") throw new GatewayError(404, "not_found", plan.message);
    if (plan.kind === "all_cooling") {
      const message = allCoolingMessage(plan.model, plan.retryAfterSeconds);
      throw new GatewayError(503, "unavailable", message, {
        headers: { "retry-after": String(plan.retryAfterSeconds) },
        fixedBody: { detail: message },
      });
    }
    let last: { providerId: string; message: string } | null = null;
    for (const attempt of plan.attempts) {
      if (last !== null) {
        // A fallback: the client may have left while the failed attempt ran.
        if (caller.clientSignal().aborted) {
          throw new GatewayError(499, "invalid_request", "client disconnected");
        }
        if (deps.routing.isCooling(attempt.account.id, deps.control.settings, deps.now())) continue;
      }
      trace.providerId = attempt.account.id;
      const outcome = await runAttempt(deps, caller, request, attempt);
      if (outcome.kind !== "failure") return outcome;
      last = { providerId: attempt.account.id, message: outcome.message };
    }
    const message = exhaustedMessage(last?.providerId ?? "none", last?.message ?? "no attempt could be made");
    throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
  }

  /** True when a model resolves to at least one account that is not cooling (no state change). */
  #routable(model: string): boolean {
    const deps = this.#deps;
    const plan = deps.routing.peek(deps.table(), model, deps.control.settings, deps.now());
    return plan.kind === "attempts" && plan.attempts.length > 0;
  }

  #respond(
    caller: CallerContext,
    request: NeutralRequest,
    outcome: RouteSuccess,
    trace: RequestTrace,
  ): Response {
    if (outcome.kind === "stream") return outcome.response;
    const codec = codecFor(caller.surface);
    const ctx = encodeContext(request, caller, this.#deps.now());
    trace.status = 200;
    if (request.stream) {
      // A whole answer for a stream client (the upstream ignored stream:true, or fusion answered).
      trace.responseBody = outputTextOf(outcome.response);
      let text = "";
      const encoder = codec.encodeStream(ctx).steps;
      const out = { enqueue: (chunk: string) => (text += chunk) };
      for (const event of responseEvents(outcome.response)) encoder.transform(event, out);
      encoder.flush?.(out);
      return streamResponse(codec, text);
    }
    const answer = JSON.stringify(codec.encodeResponse(outcome.response, ctx));
    trace.responseBody = answer;
    return new Response(answer, { headers: { "content-type": "application/json" } });
  }
}

function fusionSettings(settings: RuntimeSettings): FusionSettings {
  return {
    judge: settings.combo_fusion_judge,
    minPanel: settings.combo_fusion_min_panel,
    graceMs: settings.combo_fusion_straggler_grace_s * 1000,
    hardTimeoutMs: settings.combo_fusion_hard_timeout_s * 1000,
  };
}

function modelOf(input: DispatchInput): string {
  const body = input.body as Record<string, unknown> | null;
  if (input.decode.pathModel) return input.decode.pathModel;
  return typeof body?.model === "string" ? body.model : "";
}
