import type { WireFormat } from "../model/mod.ts";
import type { ClientIdentity } from "../gateway/identity.ts";

/** Values middleware puts on the Hono context for handlers. */
export interface AppVariables {
  identity: ClientIdentity;
  /** The wire format errors on this route are encoded in (`rerank`: Cohere's envelope, src/wire/rerank.ts). */
  surface: WireFormat | "utility" | "rerank";
}

/** Per-request facts the handler passes to the app (absent when the app is called directly). */
export interface AppBindings {
  /** The peer is a configured trusted proxy, so its X-Forwarded-* headers are believed. */
  readonly trustedProxy?: boolean;
  /** The connecting peer's address (per-client limits). */
  readonly peer?: string;
}

/** The Hono environment of the app. */
export interface AppEnv {
  Bindings: AppBindings;
  Variables: AppVariables;
}
