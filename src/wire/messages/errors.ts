import { type ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { isErrorKind, isRecord } from "../shared/mod.ts";

// Data, not a switch: the Record type makes the compiler insist on a row for every kind. The spec fixes
// the types for allowlist (model_not_allowed) and budget (budget_exceeded) refusals.
const ERROR_TYPES: Readonly<Record<ErrorKind, string>> = {
  invalid_request: "invalid_request_error",
  authentication: "authentication_error",
  permission: "permission_error",
  model_not_allowed: "model_not_allowed",
  not_found: "not_found_error",
  rate_limit: "rate_limit_error",
  budget_exceeded: "budget_exceeded",
  payload_too_large: "request_too_large",
  overloaded: "overloaded_error",
  unavailable: "overloaded_error",
  upstream: "api_error",
  timeout: "api_error",
  client_closed: "api_error",
  internal: "api_error",
};

/** The messages-format `error.type` for an error kind. */
export function errorTypeFor(kind: ErrorKind): string {
  return ERROR_TYPES[kind];
}

/** The `error.type` for a stream error event's free-form kind (api_error when it is not an ErrorKind). */
export function errorTypeForKindName(kind: string): string {
  return isErrorKind(kind) ? errorTypeFor(kind) : "api_error";
}

/** The `{type:"error", error:{type, message}}` envelope. */
export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/** A GatewayError in the messages error envelope. */
export function encodeError(error: GatewayError): EncodedError {
  return { status: error.status, body: errorBody(errorTypeFor(error.kind), error.message) };
}

/** What an upstream `{type:"error"}` body or stream event means to the gateway. */
export interface UpstreamErrorInfo {
  readonly status: number;
  readonly kind: ErrorKind;
  readonly message: string;
}

/** Status and kind for an upstream error `type`; any other type is a 502 upstream error. */
const UPSTREAM_TYPES: Readonly<Record<string, { readonly status: number; readonly kind: ErrorKind }>> = {
  invalid_request_error: { status: 400, kind: "invalid_request" },
  authentication_error: { status: 401, kind: "authentication" },
  permission_error: { status: 403, kind: "permission" },
  not_found_error: { status: 404, kind: "not_found" },
  request_too_large: { status: 413, kind: "payload_too_large" },
  rate_limit_error: { status: 429, kind: "rate_limit" },
  // 529 is Anthropic's own "overloaded" status.
  overloaded_error: { status: 529, kind: "overloaded" },
  timeout_error: { status: 504, kind: "timeout" },
};

function statusAndKind(type: string): { status: number; kind: ErrorKind } {
  return Object.hasOwn(UPSTREAM_TYPES, type) ? UPSTREAM_TYPES[type] : { status: 502, kind: "upstream" };
}

/** Reads an upstream `{type:"error", error:{type, message}}` body or stream event. */
export function upstreamErrorInfo(body: unknown): UpstreamErrorInfo {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const type = typeof error?.type === "string" ? error.type : "api_error";
  const text = typeof error?.message === "string" ? error.message : JSON.stringify(body);
  return { ...statusAndKind(type), message: `messages upstream error (${type}): ${text}` };
}

/** A 502 for an upstream body that is not a usable messages answer. */
export function upstreamError(message: string, body: unknown): GatewayError {
  return new GatewayError(502, "upstream", message, { upstreamBody: JSON.stringify(body) });
}
