/**
 * The plan → servable attempts → attempt loop shared by the non-chat kinds (media, embeddings): the same
 * routing, cooldowns and fallback as chat, with each kind deciding which targets can serve it and how one
 * attempt runs. A kind's attempt returns an answer, or a failure that lets the next target try.
 */
import { GatewayError } from "../model/mod.ts";
import { allCoolingMessage, type Attempt, exhaustedMessage, type RoutingTable } from "../routing/mod.ts";
import type { Answer } from "./answer.ts";
import type { AttemptDeps } from "./attempt_context.ts";
import { type ClientIdentity, identityRoutingKey } from "./identity.ts";
import { type CallTarget, callTarget } from "./prepare_call.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";

/** One attempt's end: the client's answer, or a failure the next target may retry. */
export type KindAttemptResult = { readonly kind: "answer"; readonly answer: Answer } | {
  readonly kind: "failure";
  readonly message: string;
};

/** How one kind is served: which targets can, why none could, and one attempt. */
export interface KindServing {
  readonly model: string;
  readonly identity: ClientIdentity;
  readonly clientSignal: () => AbortSignal;
  /** Whether this target (its API type and upstream model) can serve the request. */
  canServe(attempt: Attempt, target: CallTarget): boolean;
  /** The 400's reason when no planned target can serve it (the first planned attempt is given). */
  whyNone(first: Attempt | undefined): string;
  run(attempt: Attempt, target: CallTarget): Promise<KindAttemptResult>;
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
  let last: { providerId: string; message: string } | null = null;
  for (const attempt of servable) {
    if (last !== null) {
      if (serving.clientSignal().aborted) throw new GatewayError(499, "client_closed", "client disconnected");
      if (deps.routing.isCooling(attempt.account.id, deps.control.settings, deps.now())) continue;
    }
    const target = callTarget(deps, attempt);
    if (target === null) continue;
    lifecycle.attempting(attempt.account.id);
    const result = await serving.run(attempt, target);
    if (result.kind === "answer") return result.answer;
    last = { providerId: attempt.account.id, message: result.message };
  }
  const message = exhaustedMessage(last?.providerId ?? "none", last?.message ?? "no attempt could be made");
  throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
}
