import type { WireFormat } from "../model/mod.ts";
import type { ClientIdentity } from "../gateway/identity.ts";

/** Values middleware puts on the Hono context for handlers. */
export interface AppVariables {
  identity: ClientIdentity;
  /** The wire format errors on this route are encoded in. */
  surface: WireFormat | "utility";
}

/** The Hono environment of the app. */
export interface AppEnv {
  Variables: AppVariables;
}
