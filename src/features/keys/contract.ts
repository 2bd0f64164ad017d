/** API keys contract: the section, the view, and every key route's body and answer. */
import type { Route } from "../../dashboard/contract/api.ts";

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
}

/** DB keys (prefix only) and the labels of static keys. */
export interface KeysSection {
  readonly keys: readonly KeyView[];
  readonly static_keys: readonly { readonly label: string }[];
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
}
