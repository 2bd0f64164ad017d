import type { ApiKeyRecord, KeyRole } from "../storage/mod.ts";

/** Who is calling, after authentication. Static (YAML) keys are administrators. */
export type ClientIdentity =
  | {
    readonly kind: "db";
    readonly keyId: number;
    readonly name: string;
    readonly canLogin: boolean;
    readonly allowedModels: readonly string[];
    /** The key's group's allowlist (empty: every model); a model must pass both lists. */
    readonly groupAllowedModels: readonly string[];
    readonly groupId: number | null;
    readonly role: KeyRole;
  }
  | { readonly kind: "static"; readonly label: string; readonly keyHash: string }
  /** A dashboard session opened by single sign-on (never a model API caller). */
  | {
    readonly kind: "sso";
    readonly issuer: string;
    readonly subject: string;
    readonly email: string;
    readonly name: string;
    readonly role: KeyRole;
  }
  | { readonly kind: "anonymous" };

/**
 * A key's dashboard role: the one set explicitly, else administrator for a key that may use every model
 * and viewer for a key limited to some (a restricted key must not be able to read every provider's key).
 */
export function keyRole(key: Pick<ApiKeyRecord, "role" | "allowedModels">): KeyRole {
  return key.role ?? (key.allowedModels.length > 0 ? "viewer" : "admin");
}

/** The identity of an active DB key; `groupAllowedModels` is its group's allowlist (it may only narrow). */
export function keyIdentity(key: ApiKeyRecord, groupAllowedModels: readonly string[] = []): ClientIdentity {
  return {
    kind: "db",
    keyId: key.id,
    name: key.name,
    canLogin: key.canLogin,
    allowedModels: key.allowedModels,
    groupAllowedModels,
    groupId: key.groupId,
    role: keyRole(key),
  };
}

/** The allowlists a model must pass for this identity (none: every model). */
export function identityAllowlists(identity: ClientIdentity): readonly (readonly string[])[] {
  if (identity.kind !== "db") return [];
  const lists = [];
  if (identity.allowedModels.length > 0) lists.push(identity.allowedModels);
  if (identity.groupAllowedModels.length > 0) lists.push(identity.groupAllowedModels);
  return lists;
}

/** A limiter scope per caller: DB keys by id, static keys by label, keyless requests share one. */
export function identityRateScope(identity: ClientIdentity): string {
  switch (identity.kind) {
    case "db":
      return `key:${identity.keyId}`;
    case "static":
      return `static:${identity.label}`;
    case "sso":
      // Dashboard sessions never call models; a scope of their own keeps them apart if one ever does.
      return `sso:${identity.issuer}|${identity.subject}`;
    case "anonymous":
      return "anonymous";
  }
}

/** The dashboard role of an identity (static keys are administrators). */
export function identityRole(identity: ClientIdentity): KeyRole {
  return identity.kind === "db" || identity.kind === "sso" ? identity.role : "admin";
}

/** Placeholder shown as the user of requests allowed without a client key. */
export const ANONYMOUS_LABEL = "(no key)";

/** The name logs and usage rows show for an identity. */
export function identityLabel(identity: ClientIdentity): string {
  switch (identity.kind) {
    case "db":
      return identity.name;
    case "static":
      return identity.label;
    case "sso":
      return identity.email;
    case "anonymous":
      return ANONYMOUS_LABEL;
  }
}

/** The DB key id of an identity, or null. */
export function identityKeyId(identity: ClientIdentity): number | null {
  return identity.kind === "db" ? identity.keyId : null;
}

/** A stable key for per-client routing state, or undefined for keyless requests. */
export function identityRoutingKey(identity: ClientIdentity): string | undefined {
  switch (identity.kind) {
    case "db":
      return `key:${identity.keyId}`;
    case "static":
      return `static:${identity.keyHash}`;
    case "anonymous":
      return undefined;
  }
}
