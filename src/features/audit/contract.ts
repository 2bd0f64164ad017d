/** Audit log contract: the row view and the audit route. */
import type { Route } from "../../dashboard/contract/api.ts";

/** One audit row as the dashboard shows it (before/after are redacted JSON text, null when absent). */
export interface AuditEntryView {
  readonly id: number;
  readonly ts: number;
  readonly actor: string;
  readonly actor_kind: string;
  readonly address: string;
  readonly action: string;
  readonly target: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** The audit route (filters in the query: since, until, actor, action, target, before_id, limit). */
export interface AuditApi {
  readonly "GET /audit": Route<undefined, { readonly entries: readonly AuditEntryView[] }>;
}
