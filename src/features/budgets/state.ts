import { budgetStatus } from "../../accounting/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import { round, type SectionInput } from "../../dashboard/state/common.ts";
import type { BudgetRecord, PeriodBudgetRecord } from "../../storage/mod.ts";
import type { BudgetsSection, BudgetView, PeriodBudgetView } from "./contract.ts";

const ALERT_DAYS_MS = 7 * 86_400_000;

/** Budgets with today's status, and the keys a budget can be set for. */
export function budgetsSection({ gateway }: SectionInput): BudgetsSection {
  return {
    budgets: gateway.state.budgets.map((b) => budgetView(b, gateway)),
    keys: gateway.state.keys.filter((k) => k.status === "active").map((k) => ({ id: k.id, name: k.name })),
    timezone: gateway.budgetZone(),
    period_budgets: gateway.state.periodBudgets.map((b) => periodBudgetView(b, gateway)),
    groups: gateway.state.groups.map((g) => ({ id: g.id, name: g.name })),
    alerts: gateway.manage.budgets.alerts(gateway.now() - ALERT_DAYS_MS).map((a) => ({
      budget_id: a.budgetId,
      level: a.level,
      spent: round(a.spent, 6),
      limit: a.limit,
      window_start: a.windowStart,
      created_at: a.createdAt,
    })),
  };
}

/** A budget of any period and scope with where it stands now. */
export function periodBudgetView(budget: PeriodBudgetRecord, gateway: DashboardContext): PeriodBudgetView {
  const status = gateway.budgetStatus(budget);
  const scope = budget.scope;
  const scopeId = scope.kind === "key" ? scope.keyId : scope.kind === "group" ? scope.groupId : null;
  const label = scope.kind === "global"
    ? "Global"
    : scope.kind === "key"
    ? gateway.state.keys.find((k) => k.id === scope.keyId)?.name ?? `key #${scope.keyId}`
    : gateway.state.groups.find((g) => g.id === scope.groupId)?.name ?? `group #${scope.groupId}`;
  return {
    id: budget.id,
    scope: scope.kind,
    scope_id: scopeId,
    scope_label: label,
    period: budget.period,
    window_seconds: budget.rollingMs === null ? null : Math.round(budget.rollingMs / 1000),
    limit: budget.limit,
    warn_pct: budget.warnPct,
    hard_stop: budget.hardStop,
    webhook_url: budget.webhook?.url ?? null,
    spent: round(status.spent, 6),
    percentage: round(status.percentage, 2),
    status: status.status,
    window_start: status.windowStart,
    resets_at: status.resetAt,
  };
}

/** A budget with today's spend and status. */
export function budgetView(budget: BudgetRecord, gateway: DashboardContext): BudgetView {
  const spent = gateway.spentToday(budget.keyId);
  const status = budgetStatus({ dailyLimit: budget.dailyLimit, warnPct: budget.warnPct, spentToday: spent });
  const key = budget.keyId === null ? undefined : gateway.state.keys.find((k) => k.id === budget.keyId);
  return {
    id: budget.id,
    scope: budget.keyId === null ? "global" as const : budget.keyId,
    key_id: budget.keyId,
    scope_label: budget.keyId === null ? "Global" : key?.name ?? `key #${budget.keyId}`,
    daily_limit: budget.dailyLimit,
    warn_pct: budget.warnPct,
    spent_today: round(spent, 6),
    percentage: round(status.percentage, 2),
    remaining: round(status.remaining, 6),
    status: status.status,
  };
}
