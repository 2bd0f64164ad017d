import type { ErrorKind } from "../../model/mod.ts";

// A record rather than a list so the compiler insists on every kind when ErrorKind grows.
const ERROR_KINDS: Readonly<Record<ErrorKind, true>> = {
  invalid_request: true,
  authentication: true,
  permission: true,
  model_not_allowed: true,
  not_found: true,
  payload_too_large: true,
  rate_limit: true,
  budget_exceeded: true,
  upstream: true,
  overloaded: true,
  unavailable: true,
  timeout: true,
  client_closed: true,
  internal: true,
};

/** Whether a free-form kind (stream error events carry a plain string) names an ErrorKind. */
export function isErrorKind(kind: string): kind is ErrorKind {
  return Object.hasOwn(ERROR_KINDS, kind);
}
