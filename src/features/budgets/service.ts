import { type BudgetStatus, budgetStatus, dayStartMs } from "../../accounting/mod.ts";
import { resolveSettings } from "../../config/runtime_settings.ts";
import { localTimeZone } from "../../accounting/mod.ts";
import type { BudgetRecord } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

/** A budget with today's spend and where that puts it. */
export interface BudgetReport extends BudgetStatus {
  readonly budget: BudgetRecord;
  readonly spentToday: number;
}

/** Today's spend of a scope (null = every key together). */
export type SpendToday = (keyId: number | null) => number;

/** Daily budgets: one per scope (global or a DB key); setting one again updates it. */
export class BudgetService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Sets the daily limit (USD) and warning percentage of a scope; a key scope must be an active key. */
  set(keyId: number | null, dailyLimit: number, warnPct = 80): BudgetRecord {
    if (!Number.isFinite(dailyLimit) || dailyLimit <= 0) {
      throw invalidField("daily_limit", "must be a number greater than 0 (USD)");
    }
    if (!Number.isFinite(warnPct) || warnPct < 1 || warnPct > 100) {
      throw invalidField("warn_pct", "must be a number from 1 to 100");
    }
    const { store } = this.#deps;
    if (keyId !== null && store.keys.get(keyId)?.status !== "active") {
      throw invalidField("scope", `API key ${keyId} does not exist or is revoked`);
    }
    const budget = store.budgets.set(keyId, dailyLimit, warnPct, this.#deps.now());
    this.#deps.reload();
    return budget;
  }

  /** Deletes a budget by id; 404 when none. */
  delete(id: number): void {
    if (!this.#deps.store.budgets.delete(id)) throw notFound(`Budget ${id} does not exist`);
    this.#deps.reload();
  }

  /**
   * Every budget with its status: the one place budget status is computed for people to read. A running
   * gateway passes its in-memory spend; without one, today's spend is read from the usage table.
   */
  report(spentToday: SpendToday = this.#storedSpend()): BudgetReport[] {
    return this.#deps.store.budgets.list().map((budget) => budgetReport(budget, spentToday(budget.keyId)));
  }

  #storedSpend(): SpendToday {
    const { store, config } = this.#deps;
    const zone = resolveSettings(store.settings.all(), config.server.requireApiKey).reporting_timezone ||
      localTimeZone();
    const spend = store.usage.spendSince(dayStartMs(this.#deps.now(), zone));
    return (keyId) => keyId === null ? spend.total : spend.byKey.get(keyId) ?? 0;
  }
}

/** One budget's status at a given spend. */
export function budgetReport(budget: BudgetRecord, spentToday: number): BudgetReport {
  const status = budgetStatus({ dailyLimit: budget.dailyLimit, warnPct: budget.warnPct, spentToday });
  return { budget, spentToday, ...status };
}
