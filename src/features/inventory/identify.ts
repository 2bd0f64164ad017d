import { inventoryIdForPrefix } from "../../inventory/catalog.ts";
import type { CheckFetch } from "../../inventory/guarded_fetch.ts";
import { checkKey } from "../../inventory/key_checker.ts";
import type { ManagementDeps } from "../deps.ts";
import { isProviderBaseUrl } from "./provider_urls.ts";

/**
 * Finds the provider of a key its shape did not tell, when the user asked for it: the key is tried
 * against each enabled provider row the operator configured (model list only, no probe), in order, until
 * one accepts it; the key is then filed under that row's prefix. Each try sends the key to that upstream,
 * which is why this never runs unasked. Returns the provider id, or null when none accepted it.
 */
export async function identifyKey(
  deps: ManagementDeps,
  fetch: CheckFetch,
  id: string,
): Promise<string | null> {
  const { store } = deps;
  const key = store.inventory.key(id);
  const value = store.inventory.value(id);
  if (key === null || value === null || key.status !== "unidentified" || value.trimStart().startsWith("{")) {
    return null;
  }
  const tried = new Set<string>();
  for (const row of store.providers.list()) {
    const providerId = inventoryIdForPrefix(row.prefix);
    if (!row.enabled || tried.has(providerId)) continue;
    tried.add(providerId);
    const outcome = await checkKey({
      keyId: id,
      value,
      blob: false,
      providerId,
      apiType: row.apiType,
      baseUrl: key.baseUrl || row.baseUrl,
      trustedBaseUrl: isProviderBaseUrl([row], key.baseUrl || row.baseUrl),
      ...(row.azure ? { azure: row.azure } : {}),
    }, { fetch, usabilityProbe: false, now: deps.now });
    if (!outcome.valid) continue;
    store.transaction(() => {
      store.inventory.ensureProvider(providerId, deps.now());
      store.inventory.reassign(id, providerId, "", deps.now());
    });
    return providerId;
  }
  store.inventory.history(
    id,
    "unidentified",
    "unidentified",
    `no configured provider accepted the key (${tried.size} tried)`,
    deps.now(),
  );
  return null;
}
