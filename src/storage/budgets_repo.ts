import type { Database } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/** A daily budget: global when keyId is null, else for one DB key (the spec's budgets, as before issue 27). */
export interface BudgetRecord {
  readonly id: number;
  readonly keyId: number | null;
  readonly dailyLimit: number;
  readonly warnPct: number;
}

/** The periods a budget can run over (src/accounting/budget_period.ts computes their windows). */
export type BudgetPeriodKind = "day" | "week" | "month" | "rolling";

/** Whom a budget counts: one key, one key group, or everything. */
export type BudgetScope =
  | { readonly kind: "key"; readonly keyId: number }
  | { readonly kind: "group"; readonly groupId: number }
  | { readonly kind: "global" };

/** Where to POST a signed alert when a budget crosses its warn threshold (the secret opened, never logged). */
export interface BudgetWebhook {
  readonly url: string;
  readonly secret: string;
}

/** A budget over any period and scope. */
export interface PeriodBudgetRecord {
  readonly id: number;
  readonly scope: BudgetScope;
  readonly period: BudgetPeriodKind;
  /** The rolling window's length (ms) when period is "rolling", else null. */
  readonly rollingMs: number | null;
  /** USD per period. */
  readonly limit: number;
  readonly warnPct: number;
  /** false: crossing the limit only alerts; requests go on. */
  readonly hardStop: boolean;
  readonly webhook: BudgetWebhook | null;
}

/** What defines a budget; (scope, period, rollingMs) is its identity: setting it again replaces it. */
export interface PeriodBudgetInput {
  readonly scope: BudgetScope;
  readonly period: BudgetPeriodKind;
  readonly rollingMs?: number | null;
  readonly limit: number;
  readonly warnPct: number;
  readonly hardStop?: boolean;
  readonly webhook?: BudgetWebhook | null;
}

/** A budget alert as raised once per budget, window and level. */
export interface BudgetAlertRecord {
  readonly budgetId: number;
  readonly windowStart: number;
  readonly level: "warning" | "exceeded";
  readonly spent: number;
  readonly limit: number;
  readonly createdAt: number;
}

interface Row {
  id: number;
  key_id: number | null;
  group_id: number | null;
  daily_limit: number;
  warn_pct: number;
  period: string;
  rolling_ms: number | null;
  hard_stop: number;
  webhook_url: string | null;
  webhook_secret: string | null;
}

interface AlertRow {
  budget_id: number;
  window_start: number;
  level: string;
  spent: number;
  budget_limit: number;
  created_at: number;
}

/** The daily key-or-global rows the spec's budgets are (the legacy methods see only these). */
const DAILY = "period = 'day' AND group_id IS NULL";

/**
 * The budgets table. The legacy methods (list, set, forScope, deleteScope) keep the spec's daily per-key and
 * global budgets exactly as before; the period methods cover every period and scope. Webhook secrets are
 * sealed at rest.
 */
export class BudgetsRepo {
  readonly #db: Database;
  readonly #box: SecretBox | null;

  /** Without a box, budgets cannot carry a webhook secret. */
  constructor(db: Database, box: SecretBox | null = null) {
    this.#db = db;
    this.#box = box;
  }

  /** Every daily key or global budget, global first. */
  list(): BudgetRecord[] {
    const rows = this.#db.prepare(`SELECT * FROM budgets WHERE ${DAILY} ORDER BY key_id IS NOT NULL, key_id`)
      .all() as unknown as Row[];
    return rows.map(toRecord);
  }

  /** Creates or replaces the daily budget of a key (or the global one, keyId null); returns it. */
  set(keyId: number | null, dailyLimit: number, warnPct: number, now: number): BudgetRecord {
    const existing = this.forScope(keyId);
    if (existing) {
      this.#db.prepare("UPDATE budgets SET daily_limit = ?, warn_pct = ?, updated_at = ? WHERE id = ?")
        .run(dailyLimit, warnPct, now, existing.id);
      return { ...existing, dailyLimit, warnPct };
    }
    const row = this.#db.prepare(
      "INSERT INTO budgets (key_id, daily_limit, warn_pct, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *",
    ).get(keyId, dailyLimit, warnPct, now, now) as unknown as Row;
    return toRecord(row);
  }

  /** The daily budget of a key (or the global one). */
  forScope(keyId: number | null): BudgetRecord | undefined {
    const row =
      (keyId === null
        ? this.#db.prepare(`SELECT * FROM budgets WHERE key_id IS NULL AND ${DAILY}`).get()
        : this.#db.prepare(`SELECT * FROM budgets WHERE key_id = ? AND ${DAILY}`).get(keyId)) as unknown as
          | Row
          | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Deletes by id (any period); false when none existed. */
  delete(id: number): boolean {
    return Number(this.#db.prepare("DELETE FROM budgets WHERE id = ?").run(id).changes) > 0;
  }

  /** Deletes the daily budget of a key (or the global one). */
  deleteScope(keyId: number | null): void {
    if (keyId === null) this.#db.prepare(`DELETE FROM budgets WHERE key_id IS NULL AND ${DAILY}`).run();
    else this.#db.prepare(`DELETE FROM budgets WHERE key_id = ? AND ${DAILY}`).run(keyId);
  }

  /** Every budget of every period and scope: global, then groups, then keys. */
  listAll(): PeriodBudgetRecord[] {
    const rows = this.#db.prepare(
      `SELECT * FROM budgets ORDER BY key_id IS NOT NULL, group_id IS NOT NULL, key_id, group_id, period,
         rolling_ms, id`,
    ).all() as unknown as Row[];
    return rows.map((row) => this.#toPeriodRecord(row));
  }

  /** Creates or replaces the budget of (scope, period, rolling length); returns it. */
  upsert(input: PeriodBudgetInput, now: number): PeriodBudgetRecord {
    const rollingMs = input.period === "rolling" ? input.rollingMs ?? null : null;
    if (input.period === "rolling" && !(rollingMs !== null && rollingMs > 0)) {
      throw new Error("a rolling budget needs a window length (rollingMs > 0)");
    }
    const keyId = input.scope.kind === "key" ? input.scope.keyId : null;
    const groupId = input.scope.kind === "group" ? input.scope.groupId : null;
    let secret: string | null = null;
    if (input.webhook) {
      if (this.#box === null) throw new Error("budget webhooks need the secret key to seal their secret");
      secret = this.#box.seal(input.webhook.secret);
    }
    const existing = this.#db.prepare(
      `SELECT id FROM budgets WHERE coalesce(key_id, 0) = ? AND coalesce(group_id, 0) = ? AND period = ?
         AND coalesce(rolling_ms, 0) = ?`,
    ).get(keyId ?? 0, groupId ?? 0, input.period, rollingMs ?? 0) as { id: number } | undefined;
    const values = [
      input.limit,
      input.warnPct,
      input.hardStop === false ? 0 : 1,
      input.webhook?.url ?? null,
      secret,
      now,
    ] as const;
    const row = existing
      ? this.#db.prepare(
        `UPDATE budgets SET daily_limit = ?, warn_pct = ?, hard_stop = ?, webhook_url = ?, webhook_secret = ?,
           updated_at = ? WHERE id = ? RETURNING *`,
      ).get(...values, existing.id)
      : this.#db.prepare(
        `INSERT INTO budgets (daily_limit, warn_pct, hard_stop, webhook_url, webhook_secret, updated_at,
           created_at, key_id, group_id, period, rolling_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ).get(...values, now, keyId, groupId, input.period, rollingMs);
    return this.#toPeriodRecord(row as unknown as Row);
  }

  /**
   * Records that a budget crossed a level in one window. True only for the first caller across every
   * process on the database: that one raises the alert and sends the webhook.
   */
  claimAlert(alert: BudgetAlertRecord): boolean {
    const result = this.#db.prepare(
      `INSERT INTO budget_alerts (budget_id, window_start, level, spent, budget_limit, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(alert.budgetId, alert.windowStart, alert.level, alert.spent, alert.limit, alert.createdAt);
    return Number(result.changes) > 0;
  }

  /** Alerts raised at or after `since`, newest first. */
  alerts(since: number, limit = 100): BudgetAlertRecord[] {
    const rows = this.#db.prepare(
      "SELECT * FROM budget_alerts WHERE created_at >= ? ORDER BY created_at DESC, budget_id LIMIT ?",
    ).all(since, limit) as unknown as AlertRow[];
    return rows.map((r) => ({
      budgetId: Number(r.budget_id),
      windowStart: Number(r.window_start),
      level: r.level === "exceeded" ? "exceeded" : "warning",
      spent: r.spent,
      limit: r.budget_limit,
      createdAt: Number(r.created_at),
    }));
  }

  /** Deletes alerts raised before `before`; returns how many. */
  pruneAlerts(before: number): number {
    return Number(this.#db.prepare("DELETE FROM budget_alerts WHERE created_at < ?").run(before).changes);
  }

  #toPeriodRecord(row: Row): PeriodBudgetRecord {
    const scope: BudgetScope = row.key_id !== null
      ? { kind: "key", keyId: Number(row.key_id) }
      : row.group_id !== null
      ? { kind: "group", groupId: Number(row.group_id) }
      : { kind: "global" };
    const url = row.webhook_url;
    return {
      id: Number(row.id),
      scope,
      period: periodKind(row.period),
      rollingMs: row.rolling_ms === null ? null : Number(row.rolling_ms),
      limit: row.daily_limit,
      warnPct: row.warn_pct,
      hardStop: Number(row.hard_stop) !== 0,
      webhook: url === null || url === ""
        ? null
        : { url, secret: row.webhook_secret && this.#box ? this.#box.open(row.webhook_secret) : "" },
    };
  }
}

function periodKind(value: string): BudgetPeriodKind {
  return value === "week" || value === "month" || value === "rolling" ? value : "day";
}

function toRecord(row: Row): BudgetRecord {
  return {
    id: Number(row.id),
    keyId: row.key_id === null ? null : Number(row.key_id),
    dailyLimit: row.daily_limit,
    warnPct: row.warn_pct,
  };
}
