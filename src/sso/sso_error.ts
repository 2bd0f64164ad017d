import { type ErrorKind, GatewayError } from "../model/mod.ts";

/**
 * Why a single sign-on failed. The login page shows the message (it never holds a code, token or secret);
 * the code lets the wiring and tests tell the cases apart without reading prose.
 */
export type SsoFailure =
  /** The callback's state is missing, unknown, already used or expired: the user starts again. */
  | "state"
  /** The callback reached a browser that did not start this sign-in. */
  | "browser_binding"
  /** The provider answered the authorization with an error (the user cancelled, consent refused, …). */
  | "provider_refused"
  /** The provider's discovery document, keys or endpoints are unreachable or not usable: configuration. */
  | "provider_unusable"
  /** The token endpoint refused the code or the client's credentials. */
  | "token_exchange"
  /** The ID token failed a check (signature, issuer, audience, time, nonce). */
  | "id_token"
  /** The provider says the email address is not verified. */
  | "email_unverified"
  /** The account's email is missing or its domain is not allowed. */
  | "domain_refused"
  /** The account's claims map to no dashboard role and no default role is configured. */
  | "no_role";

const STATUS: Record<SsoFailure, readonly [number, ErrorKind]> = {
  state: [400, "invalid_request"],
  browser_binding: [400, "invalid_request"],
  provider_refused: [401, "authentication"],
  provider_unusable: [502, "upstream"],
  token_exchange: [502, "upstream"],
  id_token: [401, "authentication"],
  email_unverified: [403, "permission"],
  domain_refused: [403, "permission"],
  no_role: [403, "permission"],
};

/** A failed single sign-on: a GatewayError with a status that fits the failure, and its code. */
export class SsoError extends GatewayError {
  readonly failure: SsoFailure;

  constructor(failure: SsoFailure, message: string) {
    const [status, kind] = STATUS[failure];
    super(status, kind, message);
    this.name = "SsoError";
    this.failure = failure;
  }
}
