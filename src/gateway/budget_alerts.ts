/**
 * Budget alerts off the request path: when a recorded cost leaves a budget at or over its warn threshold
 * (or its limit), the alert is claimed once per budget, window and level across every process on the
 * database (`BudgetsRepo.claimAlert`), and the process that wins sends the budget's signed webhook. The
 * claim is a database write, so it runs deferred, never while a request waits.
 */
import { alertWindowStart, type PeriodBudgetStatus } from "../accounting/mod.ts";
import type { BudgetAlertRecord, PeriodBudgetRecord } from "../storage/mod.ts";
import { budgetEvent, type WebhookSender } from "./budget_webhook.ts";
import { log } from "../log.ts";

/** What the alerts need: the repository, the webhook sender, names for the event, an id and a deferral. */
export interface BudgetAlertsDeps {
  readonly repo: { claimAlert(alert: BudgetAlertRecord): boolean };
  readonly sender: Pick<WebhookSender, "enqueue">;
  /** The key's or group's name for the event's `scope_name`. */
  readonly scopeName: (budget: PeriodBudgetRecord) => string;
  readonly newId: () => string;
  /** Runs work after the current request's turn (setTimeout 0 in the root). */
  readonly defer: (work: () => void) => void;
}

/** Raises each budget alert once and sends its webhook. */
export class BudgetAlerts {
  readonly #deps: BudgetAlertsDeps;
  /** Alerts this process already raised or saw claimed: `budget:window:level`. */
  readonly #seen = new Set<string>();

  constructor(deps: BudgetAlertsDeps) {
    this.#deps = deps;
  }

  /** A budget stands at `status` after a cost (the budget guard's level listener). */
  observe(budget: PeriodBudgetRecord, status: PeriodBudgetStatus, now: number): void {
    if (status.status === "ok") return;
    const windowStart = alertWindowStart(status, now);
    const level = status.status;
    const key = `${budget.id}:${windowStart}:${level}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#seen.size > 10_000) this.#seen.clear();
    this.#deps.defer(() => this.#raise(budget, status, windowStart, now));
  }

  #raise(budget: PeriodBudgetRecord, status: PeriodBudgetStatus, windowStart: number, now: number): void {
    const level = status.status === "exceeded" ? "exceeded" : "warning";
    let won: boolean;
    try {
      won = this.#deps.repo.claimAlert({
        budgetId: budget.id,
        windowStart,
        level,
        spent: status.spent,
        limit: status.limit,
        createdAt: now,
      });
    } catch (error) {
      log("warn", `budget alert for budget ${budget.id} could not be recorded: ${(error as Error).message}`);
      return;
    }
    if (!won || budget.webhook === null) return;
    const event = budgetEvent({
      id: this.#deps.newId(),
      budgetId: budget.id,
      scope: budget.scope.kind,
      scopeName: this.#deps.scopeName(budget),
      warnPct: budget.warnPct,
      status,
    }, now);
    this.#deps.sender.enqueue({ url: budget.webhook.url, secret: budget.webhook.secret, event });
  }
}
