/**
 * The one way every client surface reports bad input: a 400 invalid_request whose message is
 * `<field path>: <wording>`, e.g. `messages[0].role: is required`. Each surface wraps it in its own
 * error envelope at the HTTP boundary; the path syntax and the wording are the same everywhere.
 */
import type { z } from "zod";
import { type GatewayError, invalidRequest } from "../../model/mod.ts";

type Issue = z.core.$ZodIssue;

/** Marks an issue zod would word itself, so only schema-level custom messages survive as written. */
const UNWORDED = "\u0000unworded";

/** Formats a field path the way users read it: `messages[0].content[2].source`; the root is `body`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "body" : out;
}

/** A 400 invalid_request naming the field: `messages[1].content[0].type: …`. */
export function invalidAt(path: readonly PropertyKey[], message: string): GatewayError {
  return invalidRequest(`${fieldPath(path)}: ${message}`);
}

/** The first problem of a failed parse as `<field path>: <wording>`, its path prefixed with `base`. */
export function zodProblem(error: z.ZodError, base: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${fieldPath(base)}: is invalid`;
  const { at, message } = describe(issue);
  return `${fieldPath([...base, ...at])}: ${message}`;
}

/** Turns a failed parse into one 400 naming the first problem, its path prefixed with `base`. */
export function invalidFromZod(error: z.ZodError, base: readonly PropertyKey[] = []): GatewayError {
  return invalidRequest(zodProblem(error, base));
}

/**
 * Parses `value` with `schema`, giving the data or the shared problem text. For bodies whose fault is
 * not the client's (an upstream's answer is a 502, not a 400), so the caller picks the error.
 */
export function tryParse<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { readonly ok: true; readonly data: z.infer<S> } | { readonly ok: false; readonly error: z.ZodError } {
  const parsed = schema.safeParse(value, { reportInput: true, error: () => UNWORDED });
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: parsed.error };
}

/**
 * Parses `value` with `schema`, throwing the shared 400 for the first problem under `base`. Union
 * errors are unwrapped to the branch that got furthest, so users see the field that is wrong.
 */
export function parseAt<S extends z.ZodType>(
  schema: S,
  value: unknown,
  base: readonly PropertyKey[] = [],
): z.infer<S> {
  const parsed = tryParse(schema, value);
  if (parsed.ok) return parsed.data;
  throw invalidFromZod(parsed.error, base);
}

/** Where an issue points and what to say about it. */
function describe(issue: Issue): { at: PropertyKey[]; message: string } {
  // A missing field reads the same whatever its schema says about a present but wrong value.
  if (issue.input === undefined && isShapeIssue(issue)) {
    return { at: [...issue.path], message: "is required" };
  }
  if (issue.message !== UNWORDED) return { at: [...issue.path], message: issue.message };
  if (issue.code === "invalid_union") {
    const inner = deepestBranch(issue);
    if (inner) {
      const nested = describe(inner);
      return { at: [...issue.path, ...nested.at], message: nested.message };
    }
  }
  return { at: [...issue.path], message: wording(issue) };
}

function isShapeIssue(issue: Issue): boolean {
  return issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value";
}

/** The branch that got furthest before failing explains a union's failure best (none if all failed at its root). */
function deepestBranch(issue: z.core.$ZodIssueInvalidUnion): Issue | undefined {
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first && (!best || first.path.length > best.path.length)) best = first;
  }
  return best && best.path.length > 0 ? best : undefined;
}

/** The shared wording for an issue no schema worded itself. */
function wording(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${typeName(issue.expected)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${quoteValue(issue.values[0])}`
        : `must be one of ${issue.values.map(quoteValue).join(", ")}`;
    case "invalid_union": {
      // Every branch refused the value's type at the root: name the types that would do.
      const types = issue.errors.flatMap((branch) =>
        branch[0]?.code === "invalid_type" ? [typeName(branch[0].expected)] : []
      );
      return types.length > 0 ? `must be ${[...new Set(types)].join(" or ")}` : "is not any accepted form";
    }
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "unrecognized_keys":
      return `has unknown field${issue.keys.length === 1 ? "" : "s"} ${
        issue.keys.map(quoteValue).join(", ")
      }`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return "is invalid";
  }
}

function tooSmall(issue: z.core.$ZodIssueTooSmall): string {
  const min = Number(issue.minimum);
  switch (issue.origin) {
    case "string":
      return min === 1 ? "must be a non-empty string" : `must be at least ${min} characters long`;
    case "array":
    case "set":
      return min === 1 ? "must not be empty" : `must have at least ${min} entries`;
    default:
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
  }
}

function tooBig(issue: z.core.$ZodIssueTooBig): string {
  const max = Number(issue.maximum);
  switch (issue.origin) {
    case "string":
      return `must be at most ${max} characters long`;
    case "array":
    case "set":
      return `must have at most ${max} entries`;
    default:
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "a boolean",
  array: "an array",
  tuple: "an array",
  object: "an object",
  record: "an object",
  map: "an object",
  null: "null",
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `a ${expected}`;
}

/** Longest quoted value an error message repeats: a multi-MiB bad value must not come back whole. */
const MAX_QUOTED = 120;

/** A client value as error messages quote it: JSON text, cut to MAX_QUOTED characters. */
export function quoteValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= MAX_QUOTED ? text : `${text.slice(0, MAX_QUOTED)}… (${text.length} characters)`;
}
