import { GatewayError } from "../model/mod.ts";
import { codecFor } from "../wire/mod.ts";
import { encodeRerankError } from "../wire/rerank.ts";
import type { AppVariables } from "./env.ts";
import { log } from "../log.ts";

/**
 * The generic envelope for routes that belong to no wire format (utility, dashboard API); a management
 * error names the field at fault so a form can show it beside that field.
 */
function utilityBody(error: GatewayError): unknown {
  const field = error.field === undefined ? {} : { field: error.field };
  return { error: { message: error.message, type: error.kind, ...field } };
}

/** Wraps anything thrown into a GatewayError; unknown errors become a 500 without internals. */
export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof SyntaxError) {
    return new GatewayError(400, "invalid_request", `Invalid JSON body: ${error.message}`);
  }
  return new GatewayError(500, "internal", "Internal gateway error", { cause: error });
}

/** An error as its client sees it: status, headers (e.g. `retry-after`) and the JSON body. */
export interface ErrorEnvelope {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/**
 * The one place errors are put in a client's terms: a spec-fixed body when the error carries one, else
 * the client format's own envelope. Never a stack trace. HTTP sends it as a response, the Responses
 * WebSocket as an error message.
 */
export function errorEnvelope(error: unknown, surface: AppVariables["surface"]): ErrorEnvelope {
  const gatewayError = asGatewayError(error);
  if (gatewayError.status >= 500 && gatewayError.kind === "internal") {
    // A stack's messages can quote upstream text; the console is read by more people than the keys are.
    const cause = gatewayError.cause as Error | undefined;
    // log() redacts credential shapes and keeps the stack on one line.
    log("error", `internal error: ${String(cause?.stack ?? cause)}`);
  }
  const headers = new Headers(gatewayError.headers);
  headers.set("content-type", "application/json");
  if (gatewayError.fixedBody !== undefined) {
    return { status: gatewayError.status, headers, body: gatewayError.fixedBody };
  }
  if (surface === "utility") return { status: gatewayError.status, headers, body: utilityBody(gatewayError) };
  const encoded = surface === "rerank"
    ? encodeRerankError(gatewayError)
    : codecFor(surface).encodeError(gatewayError);
  const body = gatewayError.kind === "model_not_allowed"
    ? withModelNotAllowedType(encoded.body)
    : encoded.body;
  return { status: encoded.status, headers, body };
}

/** An error as the HTTP response its client gets (see errorEnvelope). */
export function errorResponse(error: unknown, surface: AppVariables["surface"]): Response {
  const { status, headers, body } = errorEnvelope(error, surface);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * 401 with the spec's fixed body. The body cannot tell a missing key from a wrong one, so the RFC 6750
 * challenge beside it does: a bare `Bearer realm` when no key was sent, `error="invalid_token"` when the
 * key sent is unknown, revoked or expired. The message (request logs, not clients) says the same.
 */
export function invalidApiKey(sent: boolean): GatewayError {
  const challenge = sent
    ? 'Bearer realm="gateway", error="invalid_token", error_description="The API key is unknown, revoked or expired"'
    : 'Bearer realm="gateway"';
  const message = sent
    ? "Invalid API key: the key sent is unknown, revoked or expired"
    : "Invalid API key: no key was sent";
  return new GatewayError(401, "authentication", message, {
    fixedBody: { detail: "Invalid API key" },
    headers: { "www-authenticate": challenge },
  });
}

/** 403 for a model the key may not use. */
export function modelNotAllowed(model: string): GatewayError {
  return new GatewayError(403, "model_not_allowed", `This API key is not allowed to use model "${model}"`);
}

/** The spec fixes `error.type = model_not_allowed` on 403s whatever the format's envelope. */
function withModelNotAllowedType(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === "object" && inner !== null) {
    return { ...record, error: { ...(inner as Record<string, unknown>), type: "model_not_allowed" } };
  }
  return { ...record, type: "model_not_allowed" };
}
