import type { InventoryKeysSection, InventorySection, RequestLogsSection } from "../contract/mod.ts";
import { logSummary } from "../views.ts";
import { intParam, type SectionInput } from "./common.ts";

/** A page of request logs, newest first. */
export function requestLogsSection({ gateway, query }: SectionInput): RequestLogsSection {
  gateway.flushWrites();
  const store = gateway.reads;
  const limit = intParam(query, "limit", 50, { min: 1, max: 200 });
  const total = store.requestLogs.count();
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const page = intParam(query, "page", 1, { min: 1, max: totalPages });
  return {
    logging_enabled: gateway.state.settings.server_request_logging,
    retention: gateway.state.settings.server_request_log_retention,
    page,
    limit,
    total,
    total_pages: totalPages,
    logs: store.requestLogs.page(limit, (page - 1) * limit).map(logSummary),
  };
}

/** Inventory summary and providers. */
export function inventorySection({ gateway }: SectionInput, pushEnabled: boolean): InventorySection {
  const inventory = gateway.reads.inventory;
  return {
    summary: inventory.summary(),
    providers: inventory.providers().map((p) => ({ id: p.id, name: p.name, key_count: p.keyCount })),
    push_enabled: pushEnabled,
  };
}

/** A page of inventory keys (masked). */
export function inventoryKeysSection({ gateway, query }: SectionInput): InventoryKeysSection {
  const limit = intParam(query, "limit", 25, { min: 1, max: 200 });
  const page = intParam(query, "page", 1, { min: 1, max: 1_000_000 });
  const provider = query.get("provider") || undefined;
  const result = gateway.reads.inventory.keys(limit, (page - 1) * limit, provider);
  return {
    keys: result.keys.map((k) => ({
      id: k.id,
      provider_id: k.providerId,
      label: k.label,
      masked: k.masked,
      status: k.status,
      priority: k.priority,
      created_at: k.createdAt,
      last_checked_at: k.lastCheckedAt,
      last_error: gateway.state.redactor.redact(k.lastError),
    })),
    total: result.total,
    page,
    limit,
  };
}
