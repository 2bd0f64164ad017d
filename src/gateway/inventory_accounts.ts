import type { ProviderConfig } from "../config/mod.ts";
import { inventoryIdForPrefix } from "../inventory/catalog.ts";
import { hashApiKey } from "../security/api_key.ts";
import type { RoutableKey } from "../storage/mod.ts";

/** One account the gateway routes to: a provider row's own key, or one routable inventory key of its prefix. */
export interface AccountConfig extends ProviderConfig {
  /** The provider row the account belongs to (usage rows are filed under it). */
  readonly rowId: string;
  /** The inventory key the account calls with; null for the row's own key. */
  readonly inventoryKeyId: string | null;
  /** The HTTP client it shares: one per provider row and base URL. */
  readonly clientId: string;
  /** Limits the key's check read from its upstream (inventory accounts only). */
  readonly rateLimitRpm?: number;
  readonly rateLimitRpd?: number;
}

/**
 * Expands provider rows into accounts (built on every reload, never per request). The first enabled row
 * of a prefix gains one account per routable inventory key filed under the prefix's inventory id, best
 * key first, so a prefix with several rows never expands a key twice. A row's own key is routed as its own
 * account unless its inventory copy already routes, or it is known bad (invalid, archived, out of daily
 * credit) while the prefix has inventory accounts to use instead.
 */
export function expandAccounts(
  providers: readonly ProviderConfig[],
  keys: readonly RoutableKey[],
  blockedHashes: ReadonlySet<string>,
): AccountConfig[] {
  const keysByInventory = new Map<string, RoutableKey[]>();
  for (const key of keys) {
    const list = keysByInventory.get(key.providerId);
    if (list) list.push(key);
    else keysByInventory.set(key.providerId, [key]);
  }
  const expandedPrefixes = new Set<string>();
  /** Key hashes each prefix routes through its inventory (the same key may serve other prefixes too). */
  const expandedHashes = new Map<string, Set<string>>();
  const inventoryAccounts = new Map<string, AccountConfig[]>();
  for (const row of providers) {
    if (!row.enabled || expandedPrefixes.has(row.prefix)) continue;
    expandedPrefixes.add(row.prefix);
    const list = keysByInventory.get(inventoryIdForPrefix(row.prefix)) ?? [];
    const hashes = new Set<string>();
    expandedHashes.set(row.prefix, hashes);
    inventoryAccounts.set(
      row.id,
      list.map((key) => {
        hashes.add(key.hash);
        const baseUrl = key.baseUrl === "" ? row.baseUrl : key.baseUrl.replace(/\/+$/, "");
        return {
          ...row,
          id: `${row.id}::${key.id}`,
          apiKey: key.value,
          baseUrl,
          rowId: row.id,
          inventoryKeyId: key.id,
          clientId: baseUrl === row.baseUrl ? row.id : `${row.id}@${baseUrl}`,
          ...(key.rateLimitRpm !== null && key.rateLimitRpm > 0 ? { rateLimitRpm: key.rateLimitRpm } : {}),
          ...(key.rateLimitRpd !== null && key.rateLimitRpd > 0 ? { rateLimitRpd: key.rateLimitRpd } : {}),
        };
      }),
    );
  }
  const prefixHasKeys = new Set(
    providers.filter((p) => (inventoryAccounts.get(p.id)?.length ?? 0) > 0).map((p) => p.prefix),
  );
  const accounts: AccountConfig[] = [];
  for (const row of providers) {
    accounts.push(...(inventoryAccounts.get(row.id) ?? []));
    if (row.apiKey !== "") {
      const hash = hashApiKey(row.apiKey);
      if (expandedHashes.get(row.prefix)?.has(hash)) continue;
      if (blockedHashes.has(hash) && prefixHasKeys.has(row.prefix)) continue;
    }
    accounts.push({ ...row, rowId: row.id, inventoryKeyId: null, clientId: row.id });
  }
  return accounts;
}
