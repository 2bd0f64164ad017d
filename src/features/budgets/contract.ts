/** Budgets contract: the section, the view, and every budget route's body and answer. */
import type { BudgetState } from "../../accounting/budget.ts";
import type { Done, Route } from "../../dashboard/contract/api.ts";

/** A budget with today's spend and status. */
export interface BudgetView {
  readonly id: number;
  readonly scope: "global" | number;
  readonly key_id: number | null;
  readonly scope_label: string;
  readonly daily_limit: number;
  readonly warn_pct: number;
  readonly spent_today: number;
  readonly percentage: number;
  readonly remaining: number;
  readonly status: BudgetState;
}

/** A budget of any period and scope with where it stands now. */
export interface PeriodBudgetView {
  readonly id: number;
  readonly scope: "key" | "group" | "global";
  readonly scope_id: number | null;
  readonly scope_label: string;
  readonly period: "day" | "week" | "month" | "rolling";
  /** The rolling window's length in seconds, or null. */
  readonly window_seconds: number | null;
  readonly limit: number;
  readonly warn_pct: number;
  readonly hard_stop: boolean;
  /** The webhook's URL (its secret is never shown), or null. */
  readonly webhook_url: string | null;
  readonly spent: number;
  readonly percentage: number;
  readonly status: BudgetState;
  /** Epoch ms: the window's start, and when spend is next under the limit. */
  readonly window_start: number;
  readonly resets_at: number;
}

/** A budget alert: a budget crossed its warn threshold or its limit in one window. */
export interface BudgetAlertView {
  readonly budget_id: number;
  readonly level: "warning" | "exceeded";
  readonly spent: number;
  readonly limit: number;
  readonly window_start: number;
  readonly created_at: number;
}

/** Budgets with today's status, and the keys a budget can be set for. */
export interface BudgetsSection {
  readonly budgets: readonly BudgetView[];
  readonly keys: readonly { readonly id: number; readonly name: string }[];
  readonly timezone: string;
  /** Every budget of every period and scope (the daily ones too). */
  readonly period_budgets: readonly PeriodBudgetView[];
  readonly groups: readonly { readonly id: number; readonly name: string }[];
  /** Alerts of the last 7 days, newest first. */
  readonly alerts: readonly BudgetAlertView[];
}

/** Body of `POST /v2/budgets`: one budget per (scope, period, window); posting again updates it. */
export interface PeriodBudgetInput {
  readonly scope: "key" | "group" | "global";
  /** The key's or group's id (not for global). */
  readonly scope_id?: number;
  readonly period: "day" | "week" | "month" | "rolling";
  /** Rolling windows only: the length in seconds (60 s to 90 days). */
  readonly window_seconds?: number;
  readonly limit: number;
  readonly warn_pct?: number;
  readonly hard_stop?: boolean;
  /** null removes the webhook; absent keeps it. */
  readonly webhook_url?: string | null;
  /** Absent with a new URL: one is generated and returned once. */
  readonly webhook_secret?: string;
}

/** Answer of `POST /v2/budgets`; `webhook_secret` only when the gateway generated it. */
export interface PeriodBudgetSaved {
  readonly ok: true;
  readonly budget: PeriodBudgetView;
  readonly webhook_secret?: string;
}

/** Body of `POST /budgets`: one budget per scope, so posting again updates it. */
export interface BudgetInput {
  /** "global", or an API key id. */
  readonly scope: "global" | number | string;
  /** USD per day, greater than 0. */
  readonly daily_limit: number;
  /** Warn at this percentage (1–100, default 80). */
  readonly warn_pct?: number;
}

/** Answer of `POST /budgets`. */
export interface BudgetSaved {
  readonly ok: true;
  readonly budget: BudgetView;
}

/** The budgets routes. */
export interface BudgetsApi {
  readonly "POST /budgets": Route<BudgetInput, BudgetSaved>;
  readonly "DELETE /budgets/:id": Route<undefined, Done>;
  readonly "POST /v2/budgets": Route<PeriodBudgetInput, PeriodBudgetSaved>;
}
