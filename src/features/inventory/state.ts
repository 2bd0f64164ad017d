import { CATALOG, inventoryIdForPrefix } from "../../inventory/catalog.ts";
import { KEY_STATUSES } from "../../inventory/check_outcome.ts";
import type { UpstreamKeyView } from "../../storage/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type {
  InventoryKeyDetail,
  InventoryKeysSection,
  InventoryKeyView,
  InventorySection,
} from "./contract.ts";
import { intParam, type SectionInput } from "../../dashboard/state/common.ts";

/** Inventory overview: counts by provider, status and health. */
export function inventorySection({ gateway }: SectionInput, pushEnabled: boolean): InventorySection {
  const counts = gateway.reads.inventory.counts();
  const byProvider = new Map<
    string,
    { total: number; routable: number; by_status: Record<string, number> }
  >();
  const byStatus: Record<string, number> = {};
  const health: Record<string, number> = {};
  let archived = 0;
  let routable = 0;
  for (const c of counts) {
    if (c.archived) {
      archived += c.n;
      continue;
    }
    const p = byProvider.get(c.providerId) ?? { total: 0, routable: 0, by_status: {} };
    p.total += c.n;
    p.by_status[c.status] = (p.by_status[c.status] ?? 0) + c.n;
    if (c.routable) {
      p.routable += c.n;
      routable += c.n;
    }
    byProvider.set(c.providerId, p);
    byStatus[c.status] = (byStatus[c.status] ?? 0) + c.n;
    health[c.health] = (health[c.health] ?? 0) + c.n;
  }
  const at = (s: string) => byStatus[s] ?? 0;
  const known = new Map([...CATALOG.values()].map((p) => [p.id, p.name]));
  for (const p of gateway.state.providers) {
    const id = inventoryIdForPrefix(p.prefix);
    if (!known.has(id)) known.set(id, id);
  }
  return {
    summary: {
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      routable,
      active: at("active"),
      pending: at("pending_validation"),
      invalid: at("invalid"),
      error: at("error"),
      unidentified: at("unidentified"),
      archived,
      providers: byProvider.size,
    },
    by_provider: [...byProvider].map(([id, p]) => ({ id, name: CATALOG.get(id)?.name ?? id, ...p })),
    by_status: byStatus,
    health,
    checks_pending: gateway.manage.inventory.checks.pending,
    push_enabled: pushEnabled,
    statuses: KEY_STATUSES,
    known_providers: [...known].map(([id, name]) => ({ id, name })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/** The list view of a key (masked; the error text redacted). */
export function inventoryKeyView(gateway: DashboardContext, k: UpstreamKeyView): InventoryKeyView {
  return {
    id: k.id,
    provider_id: k.providerId,
    label: k.label,
    masked: k.masked,
    status: k.status,
    // The same rule as the storage's ROUTABLE filter (a key routes only after a check here).
    routable: k.status === "active" && k.isValid && k.isUsable && !k.archived && k.lastCheckedAt !== null,
    is_valid: k.isValid,
    is_usable: k.isUsable,
    usability: k.usability,
    usability_note: k.usabilityNote,
    health: k.health,
    base_url: k.baseUrl,
    priority: k.priority,
    credits_remaining: k.creditsRemaining,
    rate_limit_rpm: k.rateLimitRpm,
    rate_limit_tpm: k.rateLimitTpm,
    rate_limit_rpd: k.rateLimitRpd,
    source_node: k.sourceNode,
    archived: k.archived,
    created_at: k.createdAt,
    last_checked_at: k.lastCheckedAt,
    last_error: gateway.state.redactor.redact(k.lastError),
  };
}

/** A page of inventory keys matching the All Keys filters (provider, status, search, archived). */
export function inventoryKeysSection({ gateway, query }: SectionInput): InventoryKeysSection {
  const limit = intParam(query, "limit", 25, { min: 1, max: 200 });
  const page = intParam(query, "page", 1, { min: 1, max: 1_000_000 });
  const filters = {
    provider: query.get("provider") ?? "",
    status: query.get("status") ?? "",
    search: (query.get("search") ?? "").trim().slice(0, 200),
    archived: query.get("archived") === "true",
  };
  const result = gateway.reads.inventory.keys(limit, (page - 1) * limit, {
    provider: filters.provider || undefined,
    status: filters.status || undefined,
    search: filters.search || undefined,
    archived: filters.archived,
  });
  return {
    keys: result.keys.map((k) => inventoryKeyView(gateway, k)),
    total: result.total,
    page,
    limit,
    filters,
  };
}

/** One key with its models and newest history rows; null when it does not exist. */
export function keyDetail(gateway: DashboardContext, id: string): InventoryKeyDetail | null {
  const key = gateway.reads.inventory.key(id);
  if (key === null) return null;
  const redact = (text: string) => gateway.state.redactor.redact(text);
  return {
    key: inventoryKeyView(gateway, key),
    next_check_at: gateway.manage.inventory.checks.plannedAt(id) ?? null,
    models: gateway.reads.inventoryChecks.models(id),
    history: gateway.reads.inventoryChecks.history(id, 20).map((h) => ({
      previous_status: h.previousStatus,
      new_status: h.newStatus,
      notes: redact(h.notes),
      credits_remaining: h.creditsRemaining,
      changed_at: h.changedAt,
    })),
  };
}
