import type { ProviderConfig } from "../../config/mod.ts";
import { credentialStatus, oauthKind } from "../../credentials/mod.ts";
import type { CredentialState } from "./contract.ts";
import type { DashboardContext } from "../../dashboard/context.ts";

/** An access token this close to its expiry, with no way to renew it, is shown as expiring. */
const EXPIRING_S = 3600;

/**
 * The state of a subscription account's credential for the Routing screen, from its non-secret status and
 * this gateway's last refresh of it; null for API-key kinds.
 */
export function credentialState(provider: ProviderConfig, gateway: DashboardContext): CredentialState | null {
  const facts = oauthKind(provider.apiType);
  if (facts === null) return null;
  if (provider.apiKey === "") return "needs_sign_in";
  const nowS = Math.floor(gateway.now() / 1000);
  const status = credentialStatus(provider.apiType, provider.apiKey, nowS);
  if (status.kind === "unreadable") return "needs_sign_in";
  const state = gateway.reads.credentials.states().get(`provider:${provider.id}`);
  const failedLast = state?.lastError && (state.lastErrorAt ?? 0) >= (state.lastRefreshAt ?? 0);
  if (failedLast) return /sign in again/i.test(state!.lastError!) ? "needs_sign_in" : "refresh_failed";
  if (status.expiresAt === null || status.refreshable) {
    // A renewable credential is refreshed ahead of expiry by the gateway itself.
    return status.expiresAt !== null && status.expiresAt <= nowS && !status.refreshable
      ? "needs_sign_in"
      : "valid";
  }
  if (status.expiresAt <= nowS) return "needs_sign_in";
  return status.expiresAt - nowS <= Math.max(EXPIRING_S, facts.refreshLeadS) ? "expiring" : "valid";
}
