import type { GatewayError } from "../../model/mod.ts";
import type { EncodedError } from "../codec.ts";

/** A GatewayError in Ollama's envelope: `{"error": "<message>"}` with the error's status. */
export function encodeError(error: GatewayError): EncodedError {
  return { status: error.status, body: { error: error.message } };
}
