/**
 * The gates every model request passes after it is decoded and before any upstream is chosen, whatever
 * its kind (chat, legacy completions, images, audio, embeddings): the key's rate limits, its budgets of
 * every period and scope, and its allowlists. One home, so a new kind of request cannot skip one.
 */
import { GatewayError, type NeutralRequest, type WireFormat } from "../model/mod.ts";
import { isModelAllowed, type RoutingTable } from "../routing/mod.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import { type ClientIdentity, identityAllowlists } from "./identity.ts";
import type { RateGate } from "./rate_gate.ts";
import type { RequestLifecycle } from "./request_lifecycle.ts";

/** What the gates read. */
export interface AdmissionDeps {
  readonly rateGate: RateGate;
  readonly budgets: BudgetGuard;
  readonly now: () => number;
}

/**
 * Admits `request` for `identity` or throws the refusal (429 rate limit or budget, 403 allowlist). The
 * rate-limit permit is handed to the lifecycle, which releases it when the request ends; a request that
 * dispatches more than once (a compaction) is admitted once.
 */
export function admitRequest(
  deps: AdmissionDeps,
  lifecycle: RequestLifecycle,
  identity: ClientIdentity,
  surface: WireFormat,
  request: NeutralRequest,
  table: RoutingTable,
): void | Promise<void> {
  const rest = () => {
    deps.budgets.check(identity, deps.now());
    checkAllowed(identity, request.model, table);
  };
  if (lifecycle.isAdmitted) return rest();
  const admission = deps.rateGate.admit(identity, surface, request);
  // The common case decides at once and costs no microtask turn; only a wait for a sync tick is a promise.
  if (!(admission instanceof Promise)) {
    lifecycle.admitted(admission.permit, admission.headers);
    return rest();
  }
  return admission.then(({ permit, headers }) => {
    lifecycle.admitted(permit, headers);
    rest();
  });
}

/** The 403 of a model outside the key's allowlist or its group's (a key's list may only narrow its group's). */
export function checkAllowed(identity: ClientIdentity, model: string, table: RoutingTable): void {
  for (const allowlist of identityAllowlists(identity)) {
    if (!isModelAllowed(allowlist, model, table)) {
      throw new GatewayError(403, "model_not_allowed", `This API key is not allowed to use model "${model}"`);
    }
  }
}
