import { GatewayError } from "../model/mod.ts";

/**
 * A name that must be unique is taken (an active API key, a key group). A 409 with the field at fault, so
 * the one error boundary shows it beside the form field without a mapping of its own.
 */
export class DuplicateNameError extends GatewayError {
  constructor(what: string, name: string) {
    super(409, "invalid_request", `name: ${what} named "${name}" already exists`, { field: "name" });
    this.name = "DuplicateNameError";
  }
}
