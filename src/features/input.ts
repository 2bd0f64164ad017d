/** Input checks every management entry point shares: the dashboard's routes and the CLI. */
import { z } from "zod";
import { invalidField } from "./field_error.ts";

/** Validates input with a zod schema; the first issue becomes a field error. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  let message = issue.message;
  if (issue.code === "invalid_type" && issue.input === undefined) message = "is required";
  throw invalidField(field, message);
}

/** A list given as a JSON array of strings or one string split at commas and newlines. */
export const stringList = z.union([z.array(z.string()), z.string()]).transform((v) =>
  (Array.isArray(v) ? v : v.split(/[,\n]/)).map((s) => s.trim()).filter((s) => s !== "")
);
