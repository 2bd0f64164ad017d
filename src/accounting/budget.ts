/** Budget states (spec "Budget status"). */
export type BudgetState = "ok" | "warning" | "exceeded";

/** The default warning threshold, in percent of the daily limit. */
export const DEFAULT_WARN_PCT = 80;

/** Inputs of a budget check: the limit and spend in USD, the warning threshold in percent. */
export interface BudgetInput {
  readonly dailyLimit: number;
  readonly warnPct?: number;
  readonly spentToday: number;
}

/** Where a budget stands today. */
export interface BudgetStatus {
  readonly status: BudgetState;
  /** Spend as a percentage of the limit (100 when the limit is zero or negative). */
  readonly percentage: number;
  /** USD left today, never negative. */
  readonly remaining: number;
}

/**
 * Classifies a daily budget: exceeded at or above 100 %, warning at or above the warn percentage, else
 * ok. A limit of zero or less allows nothing, so it is always exceeded.
 */
export function budgetStatus(input: BudgetInput): BudgetStatus {
  const warnPct = input.warnPct ?? DEFAULT_WARN_PCT;
  const spent = Math.max(input.spentToday, 0);
  if (!(input.dailyLimit > 0)) return { status: "exceeded", percentage: 100, remaining: 0 };
  // Compare in the multiplied form so boundaries such as 8 of 10 at 80 % are exact in floating point.
  const status: BudgetState = spent >= input.dailyLimit
    ? "exceeded"
    : spent * 100 >= warnPct * input.dailyLimit
    ? "warning"
    : "ok";
  const percentage = (spent * 100) / input.dailyLimit;
  return { status, percentage, remaining: Math.max(input.dailyLimit - spent, 0) };
}
