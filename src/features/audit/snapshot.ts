import type { Store } from "../../storage/mod.ts";

/** The managed state by section, each entry by its id: what an audit row's before and after are cut from. */
export type ManagedSnapshot = Record<string, Record<string, unknown>>;

/** Fields that change without anyone changing anything (a key being used is not a management change). */
const VOLATILE = new Set(["lastUsedAt"]);

/**
 * Reads everything the management services change, from the store (the same for the dashboard, the API
 * and the CLI, which is another process). Values keep their secrets here; the audit repo redacts them.
 */
export function managedSnapshot(store: Store): ManagedSnapshot {
  const byId = <T>(rows: readonly T[], id: (row: T) => string | number) =>
    Object.fromEntries(rows.map((row) => [String(id(row)), withoutVolatile(row)]));
  return {
    providers: byId(store.providers.list(), (p) => p.id),
    combos: byId(store.combos.list(), (c) => c.name),
    pricing: { ...store.pricing.all() },
    budgets: byId(store.budgets.listAll(), (b) => b.id),
    keys: byId(store.keys.list(), (k) => k.id),
    key_groups: byId(store.keyGroups.list(), (g) => g.id),
    settings: Object.fromEntries(store.settings.all()),
  };
}

function withoutVolatile(row: unknown): unknown {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return row;
  return Object.fromEntries(Object.entries(row).filter(([k]) => !VOLATILE.has(k)));
}

/** What changed between two snapshots: only the entries that differ, by section and id. */
export interface SnapshotChange {
  readonly before: ManagedSnapshot;
  readonly after: ManagedSnapshot;
  /** `section:id` of each changed entry, e.g. `keys:12`. */
  readonly targets: string[];
}

/** The entries added, changed or removed; null when nothing changed. */
export function snapshotChange(before: ManagedSnapshot, after: ManagedSnapshot): SnapshotChange | null {
  const change: SnapshotChange = { before: {}, after: {}, targets: [] };
  for (const section of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = before[section] ?? {};
    const now = after[section] ?? {};
    for (const id of new Set([...Object.keys(old), ...Object.keys(now)])) {
      if (JSON.stringify(old[id]) === JSON.stringify(now[id])) continue;
      if (id in old) (change.before[section] ??= {})[id] = old[id];
      if (id in now) (change.after[section] ??= {})[id] = now[id];
      change.targets.push(`${section}:${id}`);
    }
  }
  return change.targets.length === 0 ? null : change;
}
