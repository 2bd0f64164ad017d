/** The inventory's export document (the shape Import JSON reads back): rows in, JSON-ready object out. */
import { CATALOG } from "../../inventory/catalog.ts";
import type { UpstreamKeyView } from "../../storage/mod.ts";

/** One exported row: the listed key plus its opened value and raw metadata text. */
export type ExportRow = UpstreamKeyView & { readonly value: string; readonly metadata: string };

/** The export document with every key's plaintext value (callers confirm first). */
export function exportDocument(rows: readonly ExportRow[], now: number): Record<string, unknown> {
  return {
    exported_at: new Date(now).toISOString(),
    count: rows.length,
    keys: rows.map((r) => ({
      id: r.id,
      provider_id: r.providerId,
      provider_display_name: CATALOG.get(r.providerId)?.name ?? r.providerId,
      key_label: r.label,
      key_value: r.value,
      key_masked: r.masked,
      custom_base_url: r.baseUrl,
      status: r.status,
      is_valid: r.isValid,
      is_usable: r.isUsable,
      usability_status: r.usability,
      health_status: r.health,
      credits_remaining: r.creditsRemaining,
      credits_total: r.creditsTotal,
      priority: r.priority,
      source_node: r.sourceNode,
      is_archived: r.archived,
      metadata: parseObject(r.metadata),
      last_checked_at: r.lastCheckedAt === null ? null : new Date(r.lastCheckedAt).toISOString(),
      last_error: r.lastError,
    })),
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
