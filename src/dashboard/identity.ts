import type { ControlPlane } from "../gateway/control_plane.ts";
import type { ApiKeyRecord, KeyRole } from "../storage/mod.ts";

/** Who a dashboard request is: a client identity as the gateway's `identify` gives it. */
export type DashboardIdentity = NonNullable<ReturnType<ControlPlane["identify"]>>;

/** The gateway's rules about identities and roles, which the root hands the dashboard. */
export interface IdentityRules {
  /** A key's dashboard role: explicit, else by its allowlist (a restricted key is a viewer). */
  keyRole(key: Pick<ApiKeyRecord, "role" | "allowedModels">): KeyRole;
  /** The dashboard role of an identity (static keys are administrators). */
  role(identity: DashboardIdentity): KeyRole;
  /** The name logs and the live stream show for an identity. */
  label(identity: DashboardIdentity): string;
  /** The identity of an active stored key (what a session resolves to). */
  ofKey(key: ApiKeyRecord): DashboardIdentity;
}
