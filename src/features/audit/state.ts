import type { AuditFilter, AuditRecord } from "../../storage/mod.ts";
import { invalidField } from "../field_error.ts";
import type { AuditEntryView } from "./contract.ts";

export function auditView(row: AuditRecord): AuditEntryView {
  return {
    id: row.id,
    ts: row.ts,
    actor: row.actor,
    actor_kind: row.actorKind,
    address: row.address,
    action: row.action,
    target: row.target,
    before: row.before,
    after: row.after,
  };
}

const CSV_COLUMNS = ["id", "time", "actor", "actor_kind", "address", "action", "target", "before", "after"];

/** The rows as CSV (RFC 4180 quoting), with an ISO time column. */
export function auditCsv(rows: readonly AuditRecord[]): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? "" : String(value);
    // A leading = + - @ would be read as a formula by spreadsheets: quote it as text.
    const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
    return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const lines = rows.map((r) =>
    [
      r.id,
      new Date(r.ts).toISOString(),
      r.actor,
      r.actorKind,
      r.address,
      r.action,
      r.target,
      r.before,
      r.after,
    ]
      .map(cell).join(",")
  );
  return [CSV_COLUMNS.join(","), ...lines].join("\r\n") + "\r\n";
}

/** The rows as JSON Lines, one view a line. */
export function auditJsonl(rows: readonly AuditRecord[]): string {
  return rows.map((r) => JSON.stringify(auditView(r)) + "\n").join("");
}

/** The query's filters; a malformed time or number is a field error, not an ignored filter. */
export function auditFilter(query: Record<string, string>): AuditFilter {
  const time = (name: string) => {
    const raw = query[name];
    if (raw === undefined || raw === "") return undefined;
    const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
    if (!Number.isFinite(ms)) throw invalidField(name, "must be epoch milliseconds or an ISO date");
    return ms;
  };
  const count = (name: string) => {
    const raw = query[name];
    if (raw === undefined || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw invalidField(name, "must be a positive integer");
    return n;
  };
  const text = (name: string) => query[name] === "" ? undefined : query[name];
  return {
    since: time("since"),
    until: time("until"),
    actor: text("actor"),
    action: text("action"),
    target: text("target"),
    beforeId: count("before_id"),
    limit: count("limit"),
  };
}
