import type { ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { isErrorKind, openAiTypeAndCode } from "../shared/mod.ts";

// Data, not a switch: the Record type makes the compiler insist on a row for every kind.
const CHAT_ERROR_TYPES: Readonly<Record<ErrorKind, string>> = {
  invalid_request: "invalid_request_error",
  payload_too_large: "invalid_request_error",
  authentication: "authentication_error",
  permission: "permission_error",
  model_not_allowed: "model_not_allowed",
  not_found: "not_found_error",
  rate_limit: "rate_limit_error",
  budget_exceeded: "budget_exceeded",
  upstream: "api_error",
  overloaded: "api_error",
  unavailable: "api_error",
  timeout: "api_error",
  client_closed: "api_error",
  internal: "server_error",
};

/** The OpenAI error `type` for a gateway error kind. */
export function chatErrorType(kind: ErrorKind): string {
  return CHAT_ERROR_TYPES[kind];
}

/** The OpenAI error object for a kind given as free text (stream error events carry a string). */
export function chatErrorObject(message: string, kind: string): Record<string, unknown> {
  const type = isErrorKind(kind) ? chatErrorType(kind) : "api_error";
  return { message, type, param: null, code: kind };
}

/** A GatewayError in the OpenAI envelope `{error:{message, type, param, code}}`; a spec-fixed body wins. */
export function encodeChatError(error: GatewayError): EncodedError {
  if (error.fixedBody !== undefined) return { status: error.status, body: error.fixedBody };
  const { type, code, param } = openAiTypeAndCode(error.upstreamError, {
    type: chatErrorType(error.kind),
    code: error.kind,
  });
  return { status: error.status, body: { error: { message: error.message, type, param, code } } };
}
