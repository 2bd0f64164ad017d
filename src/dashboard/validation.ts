import type { Context } from "hono";
import { z } from "zod";
import { invalidField, notFound } from "../features/field_error.ts";
import { parseInput } from "../features/input.ts";
import { GatewayError } from "../model/mod.ts";
import type { AppEnv } from "../http/env.ts";
import type { AnswerOf, ApiRoute, BodyOf } from "./contract/mod.ts";
import { readJsonBody } from "../http/read_body.ts";
import { privateJson } from "../http/responses.ts";

/** Dashboard request bodies are small; anything larger is a mistake. */
const BODY_LIMIT = 2 * 1024 * 1024;

/** Reads a JSON object body (a missing body is `{}`). */
export async function jsonObject(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const length = c.req.header("content-length");
  if (!c.req.raw.body || length === "0") return {};
  let body: unknown;
  try {
    body = await readJsonBody(c.req.raw, BODY_LIMIT);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) {
      if (/empty/.test(error.message)) return {};
      throw invalidField("body", error.message);
    }
    throw error;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidField("body", "must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** A positive integer path parameter, else 404. */
export function idParam(value: string | undefined, what: string): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw notFound(`${what} "${value}" does not exist`);
  return id;
}

/** A body type without `readonly` (zod's input types are mutable; the contract's are not). */
type Loose<T> = T extends readonly (infer E)[] ? Loose<E>[]
  : T extends object ? { -readonly [K in keyof T]: Loose<T[K]> }
  : T;

/** Holds when the schema accepts every body the contract lets the UI send (no body is read as `{}`). */
type Accepts<S extends z.ZodType, Body> = [Loose<Exclude<Body, undefined>>] extends [z.input<S>] ? unknown
  : { readonly "the schema does not accept the contract's body": Body };

/**
 * Reads and validates the body of a contract route. The schema must accept the contract's body type, so the
 * UI's typed client and the server cannot drift apart.
 */
export async function readBody<R extends ApiRoute, S extends z.ZodType>(
  c: Context<AppEnv>,
  _route: R,
  schema: S & Accepts<S, BodyOf<R>>,
): Promise<z.output<S>> {
  return parseInput(schema, await jsonObject(c));
}

/** A contract route's answer, checked against the contract (`private, no-store`: it is a user's data). */
export function answer<R extends ApiRoute>(_route: R, body: AnswerOf<R>, status: 200 | 201 = 200): Response {
  return privateJson(body, status);
}
