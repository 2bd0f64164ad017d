import { parseModelRef } from "./model_ref.ts";
import { canonicalModel, canonicalPrefix, type RoutingTable } from "./routing_table.ts";

/**
 * Whether a key's allowlist permits a requested model (spec "Key kinds and scopes"). Null or empty
 * allows everything. An entry matches by exact id, or as `<prefix>/*`; aliases and canonical prefixes
 * authorise each other, both in exact entries and in `/*` entries. A combo is allowed by its exact
 * name, and that entry then covers the members it routes to (the gateway checks only the requested
 * name). A slashed id whose leading segment is no registered prefix is a bare native id: only an exact
 * entry matches it. A `(…)` thinking suffix is ignored, so `p/m(high)` is allowed wherever `p/m` is.
 */
export function isModelAllowed(
  allowed: readonly string[] | null,
  model: string,
  table: RoutingTable,
): boolean {
  if (allowed === null || allowed.length === 0) return true;
  if (allowed.includes(model)) return true;
  const base = stripThinkingSuffix(model);
  if (base !== model && allowed.includes(base)) return true;
  if (table.combos.has(base)) return false;
  const target = canonicalModel(table, base);
  const ref = parseModelRef(target);
  if (ref === null || canonicalPrefix(table, ref.prefix) === null) return false;
  return allowed.some((entry) => entryCovers(entry, ref.prefix, target, table));
}

/** The ids of a model list (GET /v1/models, /api/tags) that an allowlist permits, in their order. */
export function filterModelList(
  allowed: readonly string[] | null,
  ids: readonly string[],
  table: RoutingTable,
): string[] {
  if (allowed === null || allowed.length === 0) return [...ids];
  return ids.filter((id) => isModelAllowed(allowed, id, table));
}

/** Removes a trailing `(…)` thinking-level suffix (`claude-sonnet-4(high)` → `claude-sonnet-4`). */
export function stripThinkingSuffix(model: string): string {
  return model.replace(/\([^()/]*\)$/, "");
}

function entryCovers(entry: string, prefix: string, target: string, table: RoutingTable): boolean {
  if (entry.endsWith("/*")) {
    const entryPrefix = entry.slice(0, -2);
    return entryPrefix !== "" && canonicalPrefix(table, entryPrefix) === prefix;
  }
  return !table.combos.has(entry) && canonicalModel(table, entry) === target;
}
