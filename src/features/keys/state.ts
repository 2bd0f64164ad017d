import type { DashboardContext } from "../../dashboard/context.ts";
import type { SectionInput } from "../../dashboard/state/common.ts";
import type { ApiKeyRecord } from "../../storage/mod.ts";
import type { KeysSection, KeyView } from "./contract.ts";

/** DB keys (prefix only) and the labels of static keys. */
export function keysSection({ gateway }: SectionInput): KeysSection {
  return {
    keys: gateway.state.keys.map((k) => keyView(k, gateway)),
    static_keys: gateway.state.config.apiKeys.map((k) => ({ label: k.label })),
  };
}

/** A DB key as the dashboard shows it: never the key, only its display prefix. */
export function keyView(key: ApiKeyRecord, gateway: DashboardContext): KeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    can_login: key.canLogin,
    allowed_models: [...key.allowedModels],
    role: gateway.identity.keyRole(key),
    role_explicit: key.role !== null,
    daily_budget: gateway.state.budgets.find((b) => b.keyId === key.id)?.dailyLimit ?? null,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}
