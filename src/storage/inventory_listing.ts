/** Listing the inventory (masked views, filters, counts, the export's rows): reads only, no secrets opened. */
import type { Database } from "./database.ts";

/** An upstream key as listed (never its value). */
export interface UpstreamKeyView {
  readonly id: string;
  readonly providerId: string;
  readonly label: string;
  readonly masked: string;
  readonly status: string;
  readonly isValid: boolean;
  readonly isUsable: boolean;
  readonly usability: string;
  readonly usabilityNote: string;
  readonly health: string;
  readonly baseUrl: string;
  readonly priority: number;
  readonly creditsRemaining: number | null;
  readonly creditsTotal: number | null;
  readonly rateLimitRpm: number | null;
  readonly rateLimitTpm: number | null;
  readonly rateLimitRpd: number | null;
  readonly sourceNode: string;
  readonly archived: boolean;
  readonly createdAt: number;
  readonly lastCheckedAt: number | null;
  readonly lastError: string;
}

/** Filters of the All Keys list. */
export interface KeyFilter {
  readonly provider?: string;
  readonly status?: string;
  /** Matches label, masked key, id or provider. */
  readonly search?: string;
  readonly archived?: boolean;
}

/** Key counts per provider and status (archived keys counted apart). */
export interface InventoryCount {
  readonly providerId: string;
  readonly status: string;
  readonly health: string;
  readonly archived: boolean;
  readonly routable: boolean;
  readonly n: number;
}

const VIEW_COLUMNS = `id, provider_id, key_label, key_masked, status, is_valid, is_usable, usability_status,
  usability_note, health_status, custom_base_url, priority, credits_remaining, credits_total, rate_limit_rpm,
  rate_limit_tpm, rate_limit_rpd, source_node, is_archived, created_at, last_checked_at, last_error`;

/**
 * The condition that makes a key an account (the spec's routable key). `last_checked_at` is set only by a
 * check this gateway ran, so a key whose state came from elsewhere (an import) never routes unchecked.
 */
export const ROUTABLE =
  "status = 'active' AND is_valid = 1 AND is_usable = 1 AND is_archived = 0 AND last_checked_at IS NOT NULL";

export const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toView(r: Record<string, unknown>): UpstreamKeyView {
  return {
    id: String(r.id),
    providerId: String(r.provider_id),
    label: String(r.key_label),
    masked: String(r.key_masked),
    status: String(r.status),
    isValid: Number(r.is_valid) === 1,
    isUsable: Number(r.is_usable) === 1,
    usability: String(r.usability_status),
    usabilityNote: String(r.usability_note),
    health: String(r.health_status),
    baseUrl: String(r.custom_base_url),
    priority: Number(r.priority),
    creditsRemaining: num(r.credits_remaining),
    creditsTotal: num(r.credits_total),
    rateLimitRpm: num(r.rate_limit_rpm),
    rateLimitTpm: num(r.rate_limit_tpm),
    rateLimitRpd: num(r.rate_limit_rpd),
    sourceNode: String(r.source_node),
    archived: Number(r.is_archived) === 1,
    createdAt: Number(r.created_at),
    lastCheckedAt: num(r.last_checked_at),
    lastError: String(r.last_error),
  };
}

/** A page of keys matching a filter, by priority then age. */
export function listKeys(
  db: Database,
  limit: number,
  offset: number,
  filter: KeyFilter,
): { keys: UpstreamKeyView[]; total: number } {
  const where: string[] = ["is_archived = ?"];
  const args: (string | number)[] = [filter.archived ? 1 : 0];
  if (filter.provider) {
    where.push("provider_id = ?");
    args.push(filter.provider);
  }
  if (filter.status) {
    where.push("status = ?");
    args.push(filter.status);
  }
  if (filter.search) {
    // LIKE over lower-cased text: the same in SQLite and PostgreSQL (instr/strpos are not).
    where.push(
      "(lower(key_label) LIKE ? ESCAPE '\\' OR lower(key_masked) LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\' " +
        "OR provider_id LIKE ? ESCAPE '\\')",
    );
    const s = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    args.push(s, s, s, s);
  }
  const clause = `WHERE ${where.join(" AND ")}`;
  const rows = db.prepare(
    `SELECT ${VIEW_COLUMNS} FROM upstream_keys ${clause}
     ORDER BY priority DESC, created_at DESC, id LIMIT ? OFFSET ?`,
  ).all(...args, limit, offset) as Record<string, unknown>[];
  const total = db.prepare(`SELECT count(*) AS n FROM upstream_keys ${clause}`).get(...args) as { n: number };
  return { total: Number(total.n), keys: rows.map(toView) };
}

/** One key (masked), or null. */
export function oneKey(db: Database, id: string): UpstreamKeyView | null {
  const row = db.prepare(`SELECT ${VIEW_COLUMNS} FROM upstream_keys WHERE id = ?`).get(id) as
    | Record<string, unknown>
    | undefined;
  return row ? toView(row) : null;
}

/** Every key with its sealed value, optionally of one provider (the repository opens them). */
export function exportRows(
  db: Database,
  providerId?: string,
): (UpstreamKeyView & { sealed: string; metadata: string })[] {
  const rows = db.prepare(
    `SELECT ${VIEW_COLUMNS}, key_value, metadata FROM upstream_keys ${
      providerId ? "WHERE provider_id = ?" : ""
    }
     ORDER BY created_at, id`,
  ).all(...(providerId ? [providerId] : [])) as Record<string, unknown>[];
  return rows.map((r) => ({ ...toView(r), sealed: String(r.key_value), metadata: String(r.metadata) }));
}

/** Key counts per provider, status, health and routability. */
export function countKeys(db: Database): InventoryCount[] {
  const rows = db.prepare(
    `SELECT provider_id, status, health_status, is_archived, (${ROUTABLE}) AS routable, count(*) AS n
     FROM upstream_keys GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2`,
  ).all() as Record<string, unknown>[];
  return rows.map((r) => ({
    providerId: String(r.provider_id),
    status: String(r.status),
    health: String(r.health_status),
    archived: Number(r.is_archived) === 1,
    routable: Number(r.routable) === 1,
    n: Number(r.n),
  }));
}
