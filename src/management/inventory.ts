import { hashApiKey } from "../security/api_key.ts";
import { maskSecret } from "../security/mask.ts";
import type { ManagementDeps } from "./deps.ts";

/** One upstream key as a push delivers it. */
export interface PushedKey {
  readonly provider: string;
  readonly key: string;
  readonly label?: string;
}

/** What became of one pushed key (never the key itself). */
export interface PushResult {
  readonly id: string;
  readonly provider: string;
  readonly label: string;
  readonly masked: string;
  readonly status: string;
  readonly duplicate: boolean;
}

/** The upstream key inventory: keys pushed in, stored sealed and deduplicated by hash. */
export class InventoryService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Adds pushed keys in one transaction; a key already stored is reported as a duplicate. */
  push(keys: readonly PushedKey[]): PushResult[] {
    const { store } = this.#deps;
    const now = this.#deps.now();
    return store.transaction(() =>
      keys.map((entry) => {
        store.inventory.ensureProvider(entry.provider, now);
        const hash = hashApiKey(entry.key);
        const masked = maskSecret(entry.key);
        const stored = store.inventory.addKey({
          id: `uk_${hash.slice(0, 16)}`,
          providerId: entry.provider,
          label: entry.label ?? "",
          value: entry.key,
          hash,
          masked,
        }, now);
        return {
          id: stored.id,
          provider: stored.providerId,
          label: stored.label,
          masked,
          status: stored.status,
          duplicate: !stored.added,
        };
      })
    );
  }
}
