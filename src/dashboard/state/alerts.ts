import type { DashboardContext } from "../context.ts";
import { budgetView, periodBudgetView } from "../../features/budgets/state.ts";
import { windowStart } from "./common.ts";
import { unpricedModels } from "../../features/pricing/state.ts";

import type { Alert } from "../contract/usage.ts";
import { log } from "../../log.ts";

export type { Alert };

const ORDER = { critical: 0, warning: 1, info: 2 } as const;

/** The alerts every state response carries; each check is fail-safe so one broken check hides no others. */
export function collectAlerts(gateway: DashboardContext): Alert[] {
  const alerts: Alert[] = [];
  const checks: (() => void)[] = [
    () => {
      for (const budget of gateway.state.budgets) {
        const view = budgetView(budget, gateway);
        if (view.status === "ok") continue;
        const exceeded = view.status === "exceeded";
        alerts.push({
          id: budget.keyId === null ? "budget:global" : `budget:key:${budget.keyId}`,
          severity: exceeded ? "critical" : "warning",
          title: `${view.scope_label} budget ${exceeded ? "exceeded" : "nearly used"}`,
          detail: `$${view.spent_today.toFixed(2)} of $${view.daily_limit.toFixed(2)} today (${
            view.percentage.toFixed(0)
          } %)${exceeded ? "; requests are refused until midnight" : ""}`,
          href: "/dashboard/ui/budgets",
        });
      }
    },
    () => {
      // Budgets beyond the spec's daily key and global ones: weeks, months, rolling windows, groups.
      for (const budget of gateway.state.periodBudgets) {
        if (budget.period === "day" && budget.scope.kind !== "group") continue;
        const view = periodBudgetView(budget, gateway);
        if (view.status === "ok") continue;
        const exceeded = view.status === "exceeded";
        const span = view.period === "rolling" ? `per ${view.window_seconds} s` : `this ${view.period}`;
        alerts.push({
          id: `budget:${budget.id}`,
          severity: exceeded ? "critical" : "warning",
          title: `${view.scope_label} ${view.period} budget ${exceeded ? "exceeded" : "nearly used"}`,
          detail: `$${view.spent.toFixed(2)} of $${view.limit.toFixed(2)} ${span} (${
            view.percentage.toFixed(0)
          } %)${
            exceeded && view.hard_stop
              ? `; requests are refused until ${new Date(view.resets_at).toISOString()}`
              : ""
          }`,
          href: "/dashboard/ui/budgets",
        });
      }
    },
    () => {
      if (!gateway.state.settings.server_cooldowns_enabled) {
        alerts.push({
          id: "cooldown:disabled",
          severity: "info",
          title: "Cooldowns are off",
          detail: "Failing accounts are retried immediately.",
          href: "/dashboard/ui/settings",
        });
        return;
      }
      const active = gateway.cooldowns.active(gateway.now());
      if (active.length > 0) {
        alerts.push({
          id: "cooldown:active",
          severity: "warning",
          title: `${active.length} account${active.length === 1 ? "" : "s"} cooling down`,
          detail: active.slice(0, 5).map((c) => `${c.accountId} (${c.remainingSeconds}s)`).join(", "),
          href: "/dashboard/ui/routing",
        });
      }
    },
    () => {
      const unpriced = unpricedModels(gateway, windowStart(gateway.now(), 30));
      if (unpriced.length > 0) {
        alerts.push({
          id: "unpriced:models",
          severity: "warning",
          title: `${unpriced.length} model${unpriced.length === 1 ? "" : "s"} without a price`,
          detail: `Used in the last 30 days and counted at $0: ${
            unpriced.slice(0, 5).map((u) => u.model).join(", ")
          }`,
          href: "/dashboard/ui/pricing",
        });
      }
    },
    () => {
      if (!gateway.state.providers.some((p) => p.enabled)) {
        alerts.push({
          id: "setup:no_providers",
          severity: "critical",
          title: "No enabled providers",
          detail: "Add a provider so requests can be routed.",
          href: "/dashboard/ui/providers",
        });
      }
    },
    () => {
      const dbKeys = gateway.state.keys.some((k) => k.status === "active");
      if (!dbKeys && gateway.state.config.apiKeys.length === 0) {
        alerts.push({
          id: "setup:no_keys",
          severity: "info",
          title: "No API keys",
          detail: "Create a key for each client so usage can be told apart and budgets applied.",
          href: "/dashboard/ui/keys",
        });
      }
    },
  ];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      log("warn", `dashboard alert check failed: ${(error as Error).message}`);
    }
  }
  return alerts.sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.id.localeCompare(b.id));
}
