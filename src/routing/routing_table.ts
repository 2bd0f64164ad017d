import { parseModelRef } from "./model_ref.ts";
import type { Account, Attempt, Combo } from "./types.ts";

/** Everything routing needs, precomputed at load and on every reload. */
export interface RoutingTable {
  /** Prefix → enabled accounts in config order. */
  readonly accountsByPrefix: ReadonlyMap<string, readonly Account[]>;
  /** Every prefix that has an account, enabled or not (for precise error messages). */
  readonly knownPrefixes: ReadonlySet<string>;
  /** Combo name → member model strings in priority order. */
  readonly combos: ReadonlyMap<string, readonly string[]>;
  /** Alias prefix → canonical prefix (`mimo` → `xiaomi`). */
  readonly aliases: Readonly<Record<string, string>>;
  /**
   * Memo of `<prefix>/<model>` → its attempts, filled by resolution. The table is rebuilt on every
   * reload, so entries never go stale; with a thousand accounts on a prefix this saves building a
   * thousand attempts per request.
   */
  readonly expansions: ExpansionMemo;
}

/** Remembered expansions and how many attempts they hold together (the memo's memory bound). */
export interface ExpansionMemo {
  readonly byModel: Map<string, readonly Attempt[]>;
  attempts: number;
}

/** Builds the routing table once from the configured accounts, combos and prefix aliases. */
export function buildRoutingTable(
  accounts: readonly Account[],
  combos: readonly Combo[],
  aliases: Readonly<Record<string, string>> = {},
): RoutingTable {
  const accountsByPrefix = new Map<string, Account[]>();
  const knownPrefixes = new Set<string>();
  for (const account of accounts) {
    knownPrefixes.add(account.prefix);
    if (!account.enabled) continue;
    const list = accountsByPrefix.get(account.prefix);
    if (list) list.push(account);
    else accountsByPrefix.set(account.prefix, [account]);
  }
  const comboMap = new Map<string, readonly string[]>();
  for (const combo of combos) comboMap.set(combo.name, [...combo.models]);
  return {
    accountsByPrefix,
    knownPrefixes,
    combos: comboMap,
    aliases: { ...aliases },
    expansions: { byModel: new Map(), attempts: 0 },
  };
}

/** The canonical prefix for a prefix or alias, or null when neither is registered. */
export function canonicalPrefix(table: RoutingTable, prefix: string): string | null {
  if (table.knownPrefixes.has(prefix)) return prefix;
  const target = Object.hasOwn(table.aliases, prefix) ? table.aliases[prefix] : undefined;
  return target !== undefined && table.knownPrefixes.has(target) ? target : null;
}

/**
 * The id a model string stands for: combo names stay as they are, `<alias>/<m>` becomes
 * `<canonical>/<m>`, and a slashed id whose leading segment is no registered prefix is a bare native
 * id (spec allowlist rule 3) and is returned unchanged.
 */
export function canonicalModel(table: RoutingTable, model: string): string {
  if (table.combos.has(model)) return model;
  const ref = parseModelRef(model);
  if (!ref) return model;
  const prefix = canonicalPrefix(table, ref.prefix);
  return prefix === null ? model : `${prefix}/${ref.model}`;
}
