/** API keys contract: the section, the view, and every key route's body and answer. */
import type { Route } from "../../dashboard/contract/api.ts";
import type { GroupView } from "../groups/contract.ts";

/** A DB key as the dashboard shows it: never the key, only its display prefix. */
export interface KeyView {
  readonly id: number;
  readonly name: string;
  readonly prefix: string;
  readonly status: "active" | "revoked";
  readonly can_login: boolean;
  readonly allowed_models: readonly string[];
  /** The dashboard role in force, and whether it was set explicitly (else it follows the allowlist). */
  readonly role: "admin" | "viewer";
  readonly role_explicit: boolean;
  readonly daily_budget: number | null;
  readonly created_at: number;
  readonly updated_at: number;
  /** Its key group (id and name), or null. */
  readonly group_id: number | null;
  readonly group: string | null;
  /** Own limits (null: inherited) and the limits in force (own, else the group's, else the default). */
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly max_parallel: number | null;
  readonly effective: {
    readonly rpm: number | null;
    readonly tpm: number | null;
    readonly max_parallel: number | null;
  };
  /** Epoch ms; null: never. */
  readonly expires_at: number | null;
  readonly expired: boolean;
  /** Epoch ms of the last authentication as last flushed; null: never used. */
  readonly last_used_at: number | null;
  /** Until when a rotated key's previous secret still works (epoch ms), or null. */
  readonly previous_valid_until: number | null;
  /** Spend of the key's tightest budget period (its own budgets; else today's spend). */
  readonly period_spend: { readonly period: string; readonly spent: number; readonly limit: number | null };
}

/** DB keys (prefix only) and the labels of static keys. */
export interface KeysSection {
  readonly keys: readonly KeyView[];
  readonly static_keys: readonly { readonly label: string }[];
  readonly groups: readonly GroupView[];
}

/** Answer of `POST /dashboard/api/v2/keys`: the plaintext is shown once. */
export interface CreatedKey {
  readonly ok: true;
  readonly key: KeyView;
  readonly plaintext: string;
}

/** Body of a key create; on update every field is optional. */
export interface KeyInput {
  readonly name: string;
  readonly can_login?: boolean;
  /** A list, or one string split at commas and newlines; empty: every model. */
  readonly allowed_models?: readonly string[] | string;
  /** USD per day; null removes the key's budget. */
  readonly daily_budget?: number | null;
  /** null: follow the allowlist (admin when every model is allowed). */
  readonly role?: "admin" | "viewer" | null;
  /** Key group id; null: none. */
  readonly group_id?: number | null;
  /** Own limits; null: inherit. */
  readonly rpm?: number | null;
  readonly tpm?: number | null;
  readonly max_parallel?: number | null;
  /** Epoch ms; null: never. */
  readonly expires_at?: number | null;
}

/** Body of a key rotation: how long the old secret keeps working (seconds, default one day). */
export interface RotateInput {
  readonly grace_seconds?: number;
}

/** Answer of a key rotation: the new plaintext, shown once. */
export interface RotatedKey {
  readonly ok: true;
  readonly key: KeyView;
  readonly plaintext: string;
}

/** Answer of a key update or revoke. */
export interface KeySaved {
  readonly ok: true;
  readonly key: KeyView;
}

/** The keys routes. */
export interface KeysApi {
  readonly "POST /v2/keys": Route<KeyInput, CreatedKey>;
  readonly "POST /keys/:id": Route<Partial<KeyInput>, KeySaved>;
  readonly "DELETE /keys/:id": Route<undefined, KeySaved>;
  readonly "POST /keys/:id/rotate": Route<RotateInput, RotatedKey>;
}
