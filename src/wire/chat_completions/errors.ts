import type { ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { isErrorKind } from "../shared/mod.ts";

/** The OpenAI error `type` for a gateway error kind. */
export function chatErrorType(kind: ErrorKind): string {
  switch (kind) {
    case "invalid_request":
    case "payload_too_large":
      return "invalid_request_error";
    case "authentication":
      return "authentication_error";
    case "permission":
      return "permission_error";
    case "model_not_allowed":
      return "model_not_allowed";
    case "not_found":
      return "not_found_error";
    case "rate_limit":
      return "rate_limit_error";
    case "budget_exceeded":
      return "budget_exceeded";
    case "upstream":
    case "overloaded":
    case "unavailable":
    case "timeout":
      return "api_error";
    case "internal":
      return "server_error";
  }
}

/** The OpenAI error object for a kind given as free text (stream error events carry a string). */
export function chatErrorObject(message: string, kind: string): Record<string, unknown> {
  const type = isErrorKind(kind) ? chatErrorType(kind) : "api_error";
  return { message, type, param: null, code: kind };
}

/** A GatewayError in the OpenAI envelope `{error:{message, type, param, code}}`; a spec-fixed body wins. */
export function encodeChatError(error: GatewayError): EncodedError {
  if (error.fixedBody !== undefined) return { status: error.status, body: error.fixedBody };
  return { status: error.status, body: { error: chatErrorObject(error.message, error.kind) } };
}
