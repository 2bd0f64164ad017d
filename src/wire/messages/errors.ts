import { type ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { isErrorKind, isRecord } from "../shared/mod.ts";

/** The messages-format `error.type` for an error kind. */
export function errorTypeFor(kind: ErrorKind): string {
  switch (kind) {
    case "invalid_request":
      return "invalid_request_error";
    case "authentication":
      return "authentication_error";
    case "permission":
      return "permission_error";
    // The spec fixes this type for allowlist refusals.
    case "model_not_allowed":
      return "model_not_allowed";
    case "not_found":
      return "not_found_error";
    case "rate_limit":
      return "rate_limit_error";
    // The spec fixes this type for budget refusals.
    case "budget_exceeded":
      return "budget_exceeded";
    case "payload_too_large":
      return "request_too_large";
    case "overloaded":
    case "unavailable":
      return "overloaded_error";
    case "upstream":
    case "timeout":
    case "internal":
      return "api_error";
  }
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

/** Status and kind for an upstream error `type` (529 is Anthropic's own "overloaded" status). */
function statusAndKind(type: string): { status: number; kind: ErrorKind } {
  switch (type) {
    case "invalid_request_error":
      return { status: 400, kind: "invalid_request" };
    case "authentication_error":
      return { status: 401, kind: "authentication" };
    case "permission_error":
      return { status: 403, kind: "permission" };
    case "not_found_error":
      return { status: 404, kind: "not_found" };
    case "request_too_large":
      return { status: 413, kind: "payload_too_large" };
    case "rate_limit_error":
      return { status: 429, kind: "rate_limit" };
    case "overloaded_error":
      return { status: 529, kind: "overloaded" };
    case "timeout_error":
      return { status: 504, kind: "timeout" };
    default:
      return { status: 502, kind: "upstream" };
  }
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
