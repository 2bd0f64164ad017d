import type { z } from "zod";
import { invalidRequest } from "../../model/mod.ts";
import type { GatewayError } from "../../model/mod.ts";

/** Formats a path the way users read it: `messages[0].content[2].source`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "body" : out;
}

/** A 400 invalid_request that names the field: `messages[1].content[0].type: …`. */
export function invalidAt(path: readonly PropertyKey[], message: string): GatewayError {
  return invalidRequest(`${formatPath(path)}: ${message}`);
}

/** Says "required" for a missing field instead of zod's "expected string, received undefined". */
function requiredWhenMissing(
  issue: { readonly input?: unknown; readonly code?: string },
): string | undefined {
  return issue.input === undefined && issue.code === "invalid_type" ? "required" : undefined;
}

/**
 * Parses `value` with `schema`, throwing a 400 that names the first problem under `path`. Union
 * errors are unwrapped to the deepest branch, so users see the field that is wrong, not "Invalid input".
 */
export function parseAt<S extends z.ZodType>(
  schema: S,
  value: unknown,
  path: readonly PropertyKey[],
): z.infer<S> {
  const parsed = schema.safeParse(value, { error: requiredWhenMissing });
  if (parsed.success) return parsed.data;
  const { at, message } = deepest(parsed.error.issues[0]);
  throw invalidAt([...path, ...at], message.replace(/^Invalid input: /, ""));
}

type Issue = z.core.$ZodIssue;

function deepest(issue: Issue): { at: PropertyKey[]; message: string } {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // The branch that got furthest before failing explains the problem best.
    let best: Issue | undefined;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (first && (!best || first.path.length > best.path.length)) best = first;
    }
    if (best && best.path.length > 0) {
      const inner = deepest(best);
      return { at: [...issue.path, ...inner.at], message: inner.message };
    }
  }
  return { at: [...issue.path], message: issue.message };
}
