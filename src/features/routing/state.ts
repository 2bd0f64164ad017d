import type { SectionInput } from "../../dashboard/state/common.ts";
import type { RoutingAccount, RoutingSection } from "./contract.ts";
import { credentialState } from "./credential_state.ts";
import { quotaView } from "./quota_view.ts";

/**
 * Accounts per prefix in config order with readiness, cooldowns, headroom per limit window and held
 * prompt caches, and the try order the next request for each prefix would get.
 */
export function routingSection({ gateway }: SectionInput): RoutingSection {
  const settings = gateway.state.settings;
  const now = gateway.now();
  const cooldowns = gateway.cooldowns.active(now);
  const sessions = gateway.quota.cacheSessions(now);
  const byAccount = new Map(cooldowns.map((c) => [c.accountId, c]));
  const prefixes = new Map<string, RoutingAccount[]>();
  // Every account: provider rows and the inventory keys they expand into (their own cooldowns and quota).
  for (const p of gateway.state.accounts) {
    const accounts = prefixes.get(p.prefix) ?? [];
    const cooling = settings.server_cooldowns_enabled ? byAccount.get(p.id) : undefined;
    const credential = credentialState(p, gateway);
    accounts.push({
      order: accounts.length + 1,
      id: p.id,
      api_type: p.apiType,
      enabled: p.enabled,
      // An account whose credential needs a new sign-in can only fail: it is not counted as ready.
      ready: p.enabled && cooling === undefined && credential !== "needs_sign_in",
      cooldown: cooling
        ? { remaining_s: cooling.remainingSeconds, until: cooling.untilMs, kind: cooling.kind }
        : null,
      quota: quotaView(gateway.quota.headroom(p.id, now)),
      cache_sessions: sessions.get(p.id) ?? 0,
      credential_state: credential,
    });
    prefixes.set(p.prefix, accounts);
  }
  return {
    cooldowns_enabled: settings.server_cooldowns_enabled,
    combo_strategy: settings.combo_strategy,
    account_strategy: settings.server_account_strategy,
    prefixes: [...prefixes].map(([prefix, accounts]) => ({
      prefix,
      accounts,
      // Any model name routes; the order depends on the prefix's accounts only.
      try_order: gateway.quota.tryOrder(`${prefix}/*`, now),
    })),
    cooldowns: cooldowns.map((c) => ({
      account_id: c.accountId,
      remaining_s: c.remainingSeconds,
      until: c.untilMs,
      kind: c.kind,
    })),
  };
}
