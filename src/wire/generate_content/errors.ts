import { type ErrorKind, GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";
import { isErrorKind } from "../shared/mod.ts";

/** google.rpc status names this codec uses in its error envelope. */
export type GeminiStatus =
  | "INVALID_ARGUMENT"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  | "RESOURCE_EXHAUSTED"
  | "UNAVAILABLE"
  | "DEADLINE_EXCEEDED"
  | "CANCELLED"
  | "INTERNAL";

// Data, not a switch: the Record type makes the compiler insist on a row for every kind.
const GEMINI_STATUSES: Readonly<Record<ErrorKind, GeminiStatus>> = {
  invalid_request: "INVALID_ARGUMENT",
  payload_too_large: "INVALID_ARGUMENT",
  authentication: "UNAUTHENTICATED",
  permission: "PERMISSION_DENIED",
  model_not_allowed: "PERMISSION_DENIED",
  not_found: "NOT_FOUND",
  rate_limit: "RESOURCE_EXHAUSTED",
  budget_exceeded: "RESOURCE_EXHAUSTED",
  overloaded: "UNAVAILABLE",
  unavailable: "UNAVAILABLE",
  timeout: "DEADLINE_EXCEEDED",
  // google.rpc's own name for a call its caller abandoned (HTTP 499).
  client_closed: "CANCELLED",
  upstream: "INTERNAL",
  internal: "INTERNAL",
};

/** The google.rpc status name for an error kind. */
export function geminiStatusFor(kind: ErrorKind): GeminiStatus {
  return GEMINI_STATUSES[kind];
}

/** The google.rpc status name for a stream error event's free-form kind (INTERNAL when unknown). */
export function geminiStatusForKindName(kind: string): GeminiStatus {
  return isErrorKind(kind) ? geminiStatusFor(kind) : "INTERNAL";
}

/** The body `{error:{code, message, status}}` Gemini clients expect. */
export function errorEnvelope(code: number, message: string, status: GeminiStatus): Record<string, unknown> {
  return { error: { code, message, status } };
}

/** A GatewayError in the Gemini error envelope. */
export function encodeError(error: GatewayError): EncodedError {
  const status = geminiStatusFor(error.kind);
  const inner: Record<string, unknown> = { code: error.status, message: error.message, status };
  if (error.kind === "model_not_allowed") {
    // Gemini clients read `status`; the ErrorInfo reason and `type` let others tell this apart
    // from a plain permission error.
    inner.details = [{
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "MODEL_NOT_ALLOWED",
      domain: "gateway",
    }];
    inner.type = "model_not_allowed";
  }
  return { status: error.status, body: { error: inner } };
}

/** A 502 upstream error for a Gemini body that is not a usable answer. */
export function upstreamError(message: string, body?: unknown): GatewayError {
  return new GatewayError(502, "upstream", message, {
    upstreamBody: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The message of a Gemini `{error:{code,message,status}}` body. */
export function upstreamErrorMessage(error: unknown): { code?: number; text: string } {
  if (typeof error === "object" && error !== null && !Array.isArray(error)) {
    const record = error as Record<string, unknown>;
    const code = typeof record.code === "number" ? record.code : undefined;
    const status = typeof record.status === "string" ? ` ${record.status}` : "";
    const message = typeof record.message === "string" ? record.message : JSON.stringify(error);
    return {
      code,
      text: `Gemini upstream error${code === undefined ? "" : ` ${code}`}${status}: ${message}`,
    };
  }
  return { text: `Gemini upstream error: ${JSON.stringify(error)}` };
}
