import { redactForAudit } from "../security/audit_redaction.ts";
import type { Database } from "./database.ts";

/** Who made a change: a DB key, a static key, a single sign-on user, the CLI on the host, or the gateway. */
export type AuditActorKind = "key" | "static_key" | "sso" | "cli" | "system";

/** One management change or sign-in, as given to the log (before/after are redacted on the way in). */
export interface AuditEntry {
  readonly ts: number;
  /** A key name, an SSO subject or e-mail, the OS user of the CLI, or "gateway". */
  readonly actor: string;
  readonly actorKind: AuditActorKind;
  /** The client address ("" for the CLI). */
  readonly address: string;
  /** What happened: `key.create`, `budget.delete`, `signin`, `signin.failed`, … */
  readonly action: string;
  /** What it happened to: `key:12`, `group:ops`, `provider:openai`, … ("" when nothing in particular). */
  readonly target: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** An audit row as stored. */
export interface AuditRecord {
  readonly id: number;
  readonly ts: number;
  readonly actor: string;
  readonly actorKind: AuditActorKind;
  readonly address: string;
  readonly action: string;
  readonly target: string;
  /** JSON text, secrets redacted; null when there was no state (a create has no before). */
  readonly before: string | null;
  readonly after: string | null;
}

/** Which rows to read: all filters are optional and combine with AND; newest first. */
export interface AuditFilter {
  readonly since?: number;
  readonly until?: number;
  readonly actor?: string;
  /** An exact action, or a prefix ending in "." (`key.` matches every key action). */
  readonly action?: string;
  readonly target?: string;
  /** Rows with an id below this (paging: the last id of the previous page). */
  readonly beforeId?: number;
  readonly limit?: number;
}

interface Row {
  id: number;
  ts: number;
  actor: string;
  actor_kind: string;
  address: string;
  action: string;
  target: string;
  before_json: string | null;
  after_json: string | null;
}

const MAX_PAGE = 1000;

/** The append-only audit_log table: rows are added and, by the retention sweep, removed; never changed. */
export class AuditLogRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Appends entries (one batch); before/after are redacted here whatever the caller did. */
  append(entries: readonly AuditEntry[]): void {
    const statement = this.#db.prepare(
      `INSERT INTO audit_log (ts, actor, actor_kind, address, action, target, before_json, after_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of entries) {
      statement.run(
        e.ts,
        e.actor,
        e.actorKind,
        e.address,
        e.action,
        e.target,
        e.before === undefined ? null : JSON.stringify(redactForAudit(e.before)),
        e.after === undefined ? null : JSON.stringify(redactForAudit(e.after)),
      );
    }
  }

  /** Rows matching the filter, newest first (at most 1000 a page). */
  list(filter: AuditFilter = {}): AuditRecord[] {
    const where: string[] = [];
    const params: (number | string)[] = [];
    if (filter.since !== undefined) where.push("ts >= ?"), params.push(filter.since);
    if (filter.until !== undefined) where.push("ts < ?"), params.push(filter.until);
    if (filter.actor !== undefined) where.push("actor = ?"), params.push(filter.actor);
    if (filter.target !== undefined) where.push("target = ?"), params.push(filter.target);
    if (filter.beforeId !== undefined) where.push("id < ?"), params.push(filter.beforeId);
    if (filter.action !== undefined) {
      if (filter.action.endsWith(".")) {
        // A prefix match without LIKE's wildcards, which an action name could contain.
        where.push("substr(action, 1, ?) = ?"), params.push(filter.action.length, filter.action);
      } else where.push("action = ?"), params.push(filter.action);
    }
    const limit = Math.min(Math.max(Math.floor(filter.limit ?? 100), 1), MAX_PAGE);
    const rows = this.#db.prepare(
      `SELECT * FROM audit_log ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY ts DESC, id DESC LIMIT ?`,
    ).all(...params, limit) as unknown as Row[];
    return rows.map(toRecord);
  }

  /**
   * The retention sweep: deletes rows older than `before`. It rides on the request-log flush, which on
   * PostgreSQL is a deferred write with no result to read, so it returns nothing.
   */
  prune(before: number): void {
    this.#db.prepare("DELETE FROM audit_log WHERE ts < ?").run(before);
  }
}

function toRecord(row: Row): AuditRecord {
  const kind = row.actor_kind;
  return {
    id: Number(row.id),
    ts: Number(row.ts),
    actor: row.actor,
    actorKind: kind === "key" || kind === "static_key" || kind === "sso" || kind === "cli" ? kind : "system",
    address: row.address,
    action: row.action,
    target: row.target,
    before: row.before_json,
    after: row.after_json,
  };
}
