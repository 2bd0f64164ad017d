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

/** Budgets with today's status, and the keys a budget can be set for. */
export interface BudgetsSection {
  readonly budgets: readonly BudgetView[];
  readonly keys: readonly { readonly id: number; readonly name: string }[];
  readonly timezone: string;
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
}
