import type { DashboardContext } from "../../dashboard/context.ts";
import type { SectionInput } from "../../dashboard/state/common.ts";
import type { ApiKeyRecord } from "../../storage/mod.ts";
import { groupView } from "../groups/state.ts";
import type { KeysSection, KeyView } from "./contract.ts";

/** DB keys (prefix only) and the labels of static keys. */
export function keysSection({ gateway }: SectionInput): KeysSection {
  return {
    keys: gateway.state.keys.map((k) => keyView(k, gateway)),
    static_keys: gateway.state.config.apiKeys.map((k) => ({ label: k.label })),
    groups: gateway.state.groups.map((g) => groupView(g, gateway)),
  };
}

/** The spend `keys list` and the Keys screen show: the key's budget of the shortest period, else today's. */
function periodSpend(key: ApiKeyRecord, gateway: DashboardContext): KeyView["period_spend"] {
  const own = gateway.state.periodBudgets.filter((b) => b.scope.kind === "key" && b.scope.keyId === key.id);
  if (own.length === 0) return { period: "day", spent: round6(gateway.spentToday(key.id)), limit: null };
  const order = ["rolling", "day", "week", "month"];
  const budget = [...own].sort((a, b) => order.indexOf(a.period) - order.indexOf(b.period))[0];
  const status = gateway.budgetStatus(budget);
  return { period: budget.period, spent: round6(status.spent), limit: budget.limit };
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** A DB key as the dashboard shows it: never the key, only its display prefix. */
export function keyView(key: ApiKeyRecord, gateway: DashboardContext): KeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    can_login: key.canLogin,
    allowed_models: [...key.allowedModels],
    role: gateway.identity.keyRole(key),
    role_explicit: key.role !== null,
    daily_budget: gateway.state.budgets.find((b) => b.keyId === key.id)?.dailyLimit ?? null,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
    group_id: key.groupId,
    group: key.groupId === null ? null : gateway.state.groups.find((g) => g.id === key.groupId)?.name ?? null,
    rpm: key.limits.rpm,
    tpm: key.limits.tpm,
    max_parallel: key.limits.maxParallel,
    effective: (() => {
      const e = gateway.state.keyRateLimits(key.id);
      return { rpm: e.rpm, tpm: e.tpm, max_parallel: e.maxParallel };
    })(),
    expires_at: key.expiresAt,
    expired: key.expiresAt !== null && key.expiresAt <= gateway.now(),
    last_used_at: gateway.state.lastUsedAt(key),
    previous_valid_until: key.previousValidUntil !== null && key.previousValidUntil > gateway.now()
      ? key.previousValidUntil
      : null,
    period_spend: periodSpend(key, gateway),
  };
}
