import { CATALOG, inventoryIdForPrefix } from "../../inventory/catalog.ts";
import { looksLikeBlob, maskKey } from "../../inventory/key_text.ts";
import { hashApiKey } from "../../security/api_key.ts";
import type { Store } from "../../storage/mod.ts";

/**
 * Mirrors each provider row's own key into the inventory (source `gateway:<id>`), so it is checked like
 * any pushed key and, once valid, routes as its inventory copy. A key that changed or a provider that went
 * away revokes its mirror; a key that came back brings its mirror back. A key already in the inventory
 * under another entry is not mirrored twice. Returns the ids to check.
 */
export function syncProviderMirrors(store: Store, now: number): string[] {
  const toCheck: string[] = [];
  store.transaction(() => {
    const mirrors = new Map(store.inventory.mirrors().map((m) => [m.sourceNode, m]));
    const wanted = new Set<string>();
    for (const row of store.providers.list()) {
      const key = row.apiKey.trim();
      // Keyless local providers and OAuth rows (their credential lifecycle is the credential core's) stay out.
      if (key === "" || looksLikeBlob(key)) continue;
      const source = `gateway:${row.id}`;
      wanted.add(source);
      const hash = hashApiKey(key);
      const mirror = mirrors.get(source);
      if (mirror !== undefined && mirror.hash === hash) {
        if (mirror.status === "revoked") {
          store.inventory.reactivate(mirror.id, now, `key of provider ${row.id} is back`);
          toCheck.push(mirror.id);
        }
        continue;
      }
      if (mirror !== undefined) store.inventory.revoke(mirror.id, now, `key of provider ${row.id} changed`);
      if (store.inventory.byHash(hash) !== null) continue;
      const providerId = inventoryIdForPrefix(row.prefix);
      const id = `uk_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
      store.inventory.ensureProvider(providerId, now, CATALOG.get(providerId)?.name ?? providerId);
      store.inventory.insert({
        id,
        providerId,
        label: `via Providers: ${row.id}`,
        value: key,
        hash,
        masked: maskKey(key),
        baseUrl: row.baseUrl,
        sourceNode: source,
        priority: 0,
        status: "pending_validation",
        lastError: "",
        metadata: "{}",
        note: `mirrored from provider ${row.id}`,
      }, now);
      toCheck.push(id);
    }
    for (const [source, mirror] of mirrors) {
      if (!wanted.has(source)) {
        store.inventory.revoke(mirror.id, now, `provider ${source.slice(8)} no longer has this key`);
      }
    }
  });
  return toCheck;
}
