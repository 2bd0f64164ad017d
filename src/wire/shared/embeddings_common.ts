/** What every embeddings format shares: the input limit, number checks, reading vectors out of answers. */
import { GatewayError } from "../../model/mod.ts";
import { invalidAt } from "./zod_issues.ts";

/** Most inputs one client request may hold on any surface (OpenAI's own limit; the gateway splits below it). */
export const MAX_EMBEDDING_INPUTS = 2048;

/** A positive integer field, else the shared 400 naming `path`. */
export function positiveInteger(value: unknown, path: readonly PropertyKey[]): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalidAt(path, "must be a positive integer");
  }
  return value;
}

/** A 502 for an upstream embeddings answer the gateway cannot use. */
export function badEmbeddingsAnswer(what: string, body?: unknown): GatewayError {
  let text: string | undefined;
  try {
    text = body === undefined ? undefined : JSON.stringify(body)?.slice(0, 2_000);
  } catch {
    text = undefined;
  }
  return new GatewayError(502, "upstream", `Upstream embeddings answer unusable: ${what}`, {
    upstreamBody: text,
  });
}

/** The numbers of a vector, or undefined when `value` is not a non-empty array of finite numbers. */
export function numberVector(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  for (let i = 0; i < value.length; i++) {
    const n = value[i];
    if (typeof n !== "number" || !Number.isFinite(n)) return undefined;
  }
  return value as number[];
}

/** A non-negative token count, or undefined for anything else. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}
