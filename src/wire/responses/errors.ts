import type { ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";

/** The OpenAI error `type` and `code` for each error kind. */
export function errorTypeAndCode(kind: ErrorKind): { readonly type: string; readonly code: string } {
  switch (kind) {
    case "invalid_request":
      return { type: "invalid_request_error", code: "invalid_request" };
    case "payload_too_large":
      return { type: "invalid_request_error", code: "payload_too_large" };
    case "authentication":
      return { type: "authentication_error", code: "invalid_api_key" };
    case "permission":
      return { type: "permission_error", code: "permission_denied" };
    case "model_not_allowed":
      return { type: "model_not_allowed", code: "model_not_allowed" };
    case "not_found":
      return { type: "not_found_error", code: "not_found" };
    case "rate_limit":
      return { type: "rate_limit_error", code: "rate_limit_exceeded" };
    case "budget_exceeded":
      return { type: "budget_exceeded", code: "budget_exceeded" };
    case "upstream":
      return { type: "server_error", code: "upstream_error" };
    case "overloaded":
      return { type: "server_error", code: "overloaded" };
    case "unavailable":
      return { type: "server_error", code: "service_unavailable" };
    case "timeout":
      return { type: "server_error", code: "timeout" };
    case "internal":
      return { type: "server_error", code: "internal_error" };
  }
}

/** A GatewayError in the OpenAI error envelope `{error:{message, type, param, code}}`. */
export function encodeError(error: GatewayError): EncodedError {
  const { type, code } = errorTypeAndCode(error.kind);
  return { status: error.status, body: { error: { message: error.message, type, param: null, code } } };
}
