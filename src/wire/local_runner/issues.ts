import type { z } from "zod";
import { invalidRequest } from "../../model/mod.ts";
import type { GatewayError } from "../../model/mod.ts";

/** Formats a zod path the way users read it: `messages[0].role`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "body" : out;
}

/** Turns the first zod issue into a 400 invalid_request naming the field. */
export function invalidFromIssues(error: z.ZodError): GatewayError {
  const issue = error.issues[0];
  const message = issue.message.replace(/^Invalid input: /, "");
  return invalidRequest(`${issuePath(issue.path)}: ${message}`);
}

/** Per-parse error map: a missing field reads "required" instead of zod's type message. */
export function requiredWhenMissing(issue: { readonly input?: unknown }): string | undefined {
  return issue.input === undefined ? "required" : undefined;
}
