import { GatewayError } from "../model/mod.ts";

/** A 400 (or another status) naming the input field at fault; the field travels as data for forms. */
export function invalidField(field: string, message: string, status = 400): GatewayError {
  return new GatewayError(status, "invalid_request", `${field}: ${message}`, { field });
}

/** A 404 for something that does not exist. */
export function notFound(message: string): GatewayError {
  return new GatewayError(404, "not_found", message);
}
