import type { MiddlewareHandler } from "hono";
import type { ControlPlane } from "../gateway/control_plane.ts";
import type { AuthRefusal } from "../gateway/auth_failure_log.ts";
import type { ClientIdentity } from "../gateway/identity.ts";
import { presentedKey } from "./credentials.ts";
import type { AppEnv } from "./env.ts";
import { invalidApiKey } from "./errors.ts";

/**
 * API authentication. With require_api_key on, a missing, unknown or revoked key is a 401 with the
 * spec's body. With it off, requests pass anonymously, but a valid DB key still brings its scopes.
 * An unknown key is ignored then: many clients insist on sending some placeholder key. `refused` hears
 * why a request is turned away (the request log tells a missing key from an unknown one). `session`, when
 * given, names the identity of a key-less request that rides a dashboard session (the Playground; see
 * src/dashboard/playground_access.ts for when it may).
 */
export function authenticate(
  control: ControlPlane,
  request: Request,
  refused?: (reason: AuthRefusal) => void,
  session?: (request: Request) => ClientIdentity | null,
): ClientIdentity {
  const key = presentedKey(request.headers, request.url);
  const identity = key === null ? (session?.(request) ?? null) : control.identify(key);
  if (identity !== null) return identity;
  if (control.settings.server_require_api_key) {
    refused?.(key === null ? "missing_key" : "unknown_key");
    throw invalidApiKey(key !== null);
  }
  return ANONYMOUS;
}

const ANONYMOUS: ClientIdentity = { kind: "anonymous" };

/** `authenticate` as Hono middleware: the identity goes on the context. */
export function apiAuth(control: ControlPlane): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("identity", authenticate(control, c.req.raw));
    await next();
  };
}
