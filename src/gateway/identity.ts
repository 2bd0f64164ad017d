/** Who is calling, after authentication. */
export type ClientIdentity =
  | {
    readonly kind: "db";
    readonly keyId: number;
    readonly name: string;
    readonly canLogin: boolean;
    readonly allowedModels: readonly string[];
  }
  | { readonly kind: "static"; readonly label: string; readonly keyHash: string }
  | { readonly kind: "anonymous" };

/** Placeholder shown as the user of requests allowed without a client key. */
export const ANONYMOUS_LABEL = "(no key)";

/** The name logs and usage rows show for an identity. */
export function identityLabel(identity: ClientIdentity): string {
  switch (identity.kind) {
    case "db":
      return identity.name;
    case "static":
      return identity.label;
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
