import { budgetStatus } from "../../accounting/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import { round, type SectionInput } from "../../dashboard/state/common.ts";
import type { BudgetRecord } from "../../storage/mod.ts";
import type { BudgetsSection, BudgetView } from "./contract.ts";

/** Budgets with today's status, and the keys a budget can be set for. */
export function budgetsSection({ gateway }: SectionInput): BudgetsSection {
  return {
    budgets: gateway.state.budgets.map((b) => budgetView(b, gateway)),
    keys: gateway.state.keys.filter((k) => k.status === "active").map((k) => ({ id: k.id, name: k.name })),
    timezone: gateway.budgetZone(),
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
