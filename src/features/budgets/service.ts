import { type BudgetStatus, budgetStatus, dayStartMs } from "../../accounting/mod.ts";
import { resolveSettings } from "../../config/runtime_settings.ts";
import { localTimeZone } from "../../accounting/mod.ts";
import { budgetPeriod, type PeriodBudgetStatus, periodStatus, periodWindow } from "../../accounting/mod.ts";
import { generateApiKey } from "../../security/api_key.ts";
import type { BudgetPeriodKind, BudgetRecord, BudgetScope, PeriodBudgetRecord } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

/** A budget with today's spend and where that puts it. */
export interface BudgetReport extends BudgetStatus {
  readonly budget: BudgetRecord;
  readonly spentToday: number;
}

/** Today's spend of a scope (null = every key together). */
export type SpendToday = (keyId: number | null) => number;

/** A budget of any period and scope as a form or the CLI sets it. */
export interface PeriodBudgetSettings {
  readonly scope: BudgetScope;
  readonly period: BudgetPeriodKind;
  /** The rolling window's length (ms); required for "rolling". */
  readonly rollingMs?: number | null;
  readonly limit: number;
  readonly warnPct?: number;
  /** false: only alert when exceeded (default true: requests get 429). */
  readonly hardStop?: boolean;
  /** Where to POST the signed alerts; null removes the webhook, undefined keeps it. */
  readonly webhookUrl?: string | null;
  /** The signing secret; generated (and returned once) when a webhook is set without one. */
  readonly webhookSecret?: string;
}

/** A saved budget; `webhookSecret` is set only when it was generated (shown once). */
export interface SavedPeriodBudget {
  readonly budget: PeriodBudgetRecord;
  readonly webhookSecret?: string;
}

/** Where a budget of any period stands at one instant. */
export type PeriodBudgetStatusOf = (budget: PeriodBudgetRecord) => PeriodBudgetStatus;

/** Longest rolling window: 90 days (its ring keeps 300 buckets). */
const MAX_ROLLING_MS = 90 * 86_400_000;

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

  /**
   * Creates or replaces the budget of (scope, period, rolling length): any period (day, week, month,
   * rolling) for a key, a key group or the gateway, with a warn threshold, a hard stop and a webhook.
   */
  setPeriod(input: PeriodBudgetSettings): SavedPeriodBudget {
    const { store } = this.#deps;
    if (!Number.isFinite(input.limit) || input.limit <= 0) {
      throw invalidField("limit", "must be a number greater than 0 (USD)");
    }
    const warnPct = input.warnPct ?? 80;
    if (!Number.isFinite(warnPct) || warnPct < 1 || warnPct > 100) {
      throw invalidField("warn_pct", "must be a number from 1 to 100");
    }
    if (!["day", "week", "month", "rolling"].includes(input.period)) {
      throw invalidField("period", "must be day, week, month or rolling");
    }
    const rollingMs = input.period === "rolling" ? input.rollingMs ?? null : null;
    if (
      input.period === "rolling" &&
      !(rollingMs !== null && rollingMs >= 60_000 && rollingMs <= MAX_ROLLING_MS)
    ) {
      throw invalidField("window", "a rolling budget needs a window from 1 minute to 90 days (e.g. 5h, 7d)");
    }
    const scope = input.scope;
    if (scope.kind === "key" && store.keys.get(scope.keyId)?.status !== "active") {
      throw invalidField("scope", `API key ${scope.keyId} does not exist or is revoked`);
    }
    if (scope.kind === "group" && store.keyGroups.get(scope.groupId) === undefined) {
      throw invalidField("scope", `key group ${scope.groupId} does not exist`);
    }
    const existing = store.budgets.listAll().find((b) =>
      sameScope(b.scope, scope) && b.period === input.period && b.rollingMs === rollingMs
    );
    let generated: string | undefined;
    let webhook = existing?.webhook ?? null;
    if (input.webhookUrl === null) webhook = null;
    else if (input.webhookUrl !== undefined) {
      const url = validateWebhookUrl(input.webhookUrl);
      let secret = input.webhookSecret ?? (webhook?.url === url ? webhook.secret : undefined);
      if (secret === undefined || secret === "") secret = generated = `whsec_${generateApiKey()}`;
      if (secret.length < 16) throw invalidField("webhook_secret", "must be at least 16 characters");
      webhook = { url, secret };
    }
    const budget = store.budgets.upsert({
      scope,
      period: input.period,
      rollingMs,
      limit: input.limit,
      warnPct,
      hardStop: input.hardStop ?? existing?.hardStop ?? true,
      webhook,
    }, this.#deps.now());
    this.#deps.reload();
    return generated === undefined ? { budget } : { budget, webhookSecret: generated };
  }

  /** Every budget of every period and scope: global, then groups, then keys. */
  listAll(): PeriodBudgetRecord[] {
    return this.#deps.store.budgets.listAll();
  }

  /**
   * Where each budget of any period stands. A running gateway passes its in-memory status; without one
   * (the CLI) spend is read from the usage table.
   */
  periodReport(statusOf: PeriodBudgetStatusOf = this.#storedStatus()): {
    budget: PeriodBudgetRecord;
    status: PeriodBudgetStatus;
  }[] {
    return this.listAll().map((budget) => ({ budget, status: statusOf(budget) }));
  }

  /** Budget alerts raised since `since`, newest first. */
  alerts(since: number) {
    return this.#deps.store.budgets.alerts(since);
  }

  #storedStatus(): PeriodBudgetStatusOf {
    const { store, config } = this.#deps;
    const zone = resolveSettings(store.settings.all(), config.server.requireApiKey).reporting_timezone ||
      localTimeZone();
    const now = this.#deps.now();
    const groupOf = new Map(store.keys.list().map((k) => [k.id, k.groupId]));
    return (budget) => {
      const period = budgetPeriod(budget.period, budget.rollingMs);
      const window = periodWindow(period, now, zone);
      const spend = store.usage.spendSince(window.start);
      let spent = spend.total;
      if (budget.scope.kind === "key") spent = spend.byKey.get(budget.scope.keyId) ?? 0;
      else if (budget.scope.kind === "group") {
        const groupId = budget.scope.groupId;
        spent = 0;
        for (const [keyId, cost] of spend.byKey) if (groupOf.get(keyId) === groupId) spent += cost;
      }
      return periodStatus({ period, limit: budget.limit, warnPct: budget.warnPct }, spent, window, now);
    };
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
  report(spentToday: SpendToday = this.storedSpendToday()): BudgetReport[] {
    return this.#deps.store.budgets.list().map((budget) => budgetReport(budget, spentToday(budget.keyId)));
  }

  /** Today's spend per scope read from the usage table (for commands run without the gateway). */
  storedSpendToday(): SpendToday {
    const { store, config } = this.#deps;
    const zone = resolveSettings(store.settings.all(), config.server.requireApiKey).reporting_timezone ||
      localTimeZone();
    const spend = store.usage.spendSince(dayStartMs(this.#deps.now(), zone));
    return (keyId) => keyId === null ? spend.total : spend.byKey.get(keyId) ?? 0;
  }
}

function sameScope(a: BudgetScope, b: BudgetScope): boolean {
  if (a.kind === "key" && b.kind === "key") return a.keyId === b.keyId;
  if (a.kind === "group" && b.kind === "group") return a.groupId === b.groupId;
  return a.kind === "global" && b.kind === "global";
}

/** A webhook URL: http(s), no credentials in it. */
function validateWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidField("webhook_url", "must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidField("webhook_url", "must be an http(s) URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw invalidField("webhook_url", "must not carry credentials (the signature authenticates the gateway)");
  }
  return url.toString();
}

/** One budget's status at a given spend. */
export function budgetReport(budget: BudgetRecord, spentToday: number): BudgetReport {
  const status = budgetStatus({ dailyLimit: budget.dailyLimit, warnPct: budget.warnPct, spentToday });
  return { budget, spentToday, ...status };
}
