import type { ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { openAiTypeAndCode } from "../shared/mod.ts";

/** An OpenAI error `type` and `code`. */
interface TypeAndCode {
  readonly type: string;
  readonly code: string;
}

// Data, not a switch: the Record type makes the compiler insist on a row for every kind.
const TYPES_AND_CODES: Readonly<Record<ErrorKind, TypeAndCode>> = {
  invalid_request: { type: "invalid_request_error", code: "invalid_request" },
  payload_too_large: { type: "invalid_request_error", code: "payload_too_large" },
  authentication: { type: "authentication_error", code: "invalid_api_key" },
  permission: { type: "permission_error", code: "permission_denied" },
  model_not_allowed: { type: "model_not_allowed", code: "model_not_allowed" },
  not_found: { type: "not_found_error", code: "not_found" },
  rate_limit: { type: "rate_limit_error", code: "rate_limit_exceeded" },
  budget_exceeded: { type: "budget_exceeded", code: "budget_exceeded" },
  upstream: { type: "server_error", code: "upstream_error" },
  overloaded: { type: "server_error", code: "overloaded" },
  unavailable: { type: "server_error", code: "service_unavailable" },
  timeout: { type: "server_error", code: "timeout" },
  client_closed: { type: "server_error", code: "client_closed" },
  internal: { type: "server_error", code: "internal_error" },
};

/** The OpenAI error `type` and `code` for each error kind. */
export function errorTypeAndCode(kind: ErrorKind): TypeAndCode {
  return TYPES_AND_CODES[kind];
}

/** A GatewayError in the OpenAI error envelope `{error:{message, type, param, code}}`. */
export function encodeError(error: GatewayError): EncodedError {
  const { type, code, param } = openAiTypeAndCode(error.upstreamError, errorTypeAndCode(error.kind));
  return { status: error.status, body: { error: { message: error.message, type, param, code } } };
}
