/** What both rerank formats share: field checks, reading an upstream answer, documents in results. */
import {
  GatewayError,
  type NeutralRerankResponse,
  type RerankDocument,
  type RerankResult,
  type RerankUsage,
} from "../../model/mod.ts";
import type { RerankCall, RerankEncodeContext } from "../rerank_codec.ts";
import { tokenCount } from "./embeddings_common.ts";
import { isRecord } from "./json.ts";
import { invalidAt } from "./zod_issues.ts";

/** Most documents one request may hold (Cohere's documented maximum). */
export const MAX_RERANK_DOCUMENTS = 10_000;

/** The request fields both formats read the same way: model and query. */
export function modelAndQuery(body: Record<string, unknown>): { model: string; query: string } {
  const model = body.model;
  if (model === undefined || model === null) throw invalidAt(["model"], "is required");
  if (typeof model !== "string" || model === "") throw invalidAt(["model"], "must be a non-empty string");
  const query = body.query;
  if (query === undefined || query === null) throw invalidAt(["query"], "is required");
  if (typeof query !== "string" || query === "") throw invalidAt(["query"], "must be a non-empty string");
  return { model, query };
}

/** `documents` as a list of 1 … MAX_RERANK_DOCUMENTS entries, each checked by `entry`. */
export function documentList(
  value: unknown,
  entry: (item: unknown, index: number) => RerankDocument,
): RerankDocument[] {
  if (value === undefined || value === null) throw invalidAt(["documents"], "is required");
  if (!Array.isArray(value)) throw invalidAt(["documents"], "must be an array");
  if (value.length === 0) throw invalidAt(["documents"], "must not be empty");
  if (value.length > MAX_RERANK_DOCUMENTS) {
    throw invalidAt(["documents"], `must have at most ${MAX_RERANK_DOCUMENTS} entries`);
  }
  return value.map(entry);
}

/** An optional positive integer field (absent or null: undefined). */
export function optionalPositive(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalidAt([field], "must be a positive integer");
  }
  return value;
}

/** An optional boolean field (absent or null: undefined). */
export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalidAt([field], "must be true or false");
  return value;
}

/** The body's fields outside `known`, kept verbatim for an upstream of the same format. */
export function unmappedFields(
  body: Record<string, unknown>,
  known: ReadonlySet<string>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!known.has(key) && value !== undefined) fields[key] = value;
  }
  return fields;
}

/** A 502 for an upstream rerank answer the gateway cannot use. */
export function badRerankAnswer(what: string, body?: unknown): GatewayError {
  let text: string | undefined;
  try {
    text = body === undefined ? undefined : JSON.stringify(body)?.slice(0, 2_000);
  } catch {
    text = undefined;
  }
  return new GatewayError(502, "upstream", `Upstream rerank answer unusable: ${what}`, {
    upstreamBody: text,
  });
}

/**
 * Reads a Cohere (v1 or v2), Jina or compatible answer: `results` of `{index, relevance_score, document?}`,
 * usage from `meta.billed_units` (search units, Cohere) or `usage` (tokens, Jina and vLLM). Results are put
 * most relevant first and cut to the call's `top_n` (some servers ignore it).
 */
export function decodeRerankAnswer(body: unknown, call: RerankCall): NeutralRerankResponse {
  if (!isRecord(body) || !Array.isArray(body.results)) throw badRerankAnswer("no `results` list", body);
  const seen = new Set<number>();
  const results: RerankResult[] = [];
  for (let i = 0; i < body.results.length; i++) {
    const entry = body.results[i];
    if (!isRecord(entry)) throw badRerankAnswer(`results[${i}] is not an object`, body);
    const index = entry.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= call.documents) {
      throw badRerankAnswer(`results[${i}].index is not a document position`, body);
    }
    if (seen.has(index)) throw badRerankAnswer(`two results for document ${index}`, body);
    seen.add(index);
    const score = entry.relevance_score;
    if (typeof score !== "number" || !Number.isFinite(score)) {
      throw badRerankAnswer(`results[${i}].relevance_score is not a number`, body);
    }
    results.push(
      entry.document === undefined || entry.document === null
        ? { index, relevanceScore: score }
        : { index, relevanceScore: score, document: entry.document },
    );
  }
  // Stable: equal scores keep the upstream's order.
  results.sort((a, b) => b.relevanceScore - a.relevanceScore);
  const kept = call.topN === undefined ? results : results.slice(0, call.topN);
  const out: { -readonly [K in keyof NeutralRerankResponse]: NeutralRerankResponse[K] } = { results: kept };
  if (typeof body.id === "string" && body.id !== "") out.id = body.id;
  if (typeof body.model === "string" && body.model !== "") out.model = body.model;
  const usage = decodeUsage(body);
  if (usage !== undefined) out.usage = usage;
  return out;
}

function decodeUsage(body: Record<string, unknown>): RerankUsage | undefined {
  const billed = isRecord(body.meta) && isRecord(body.meta.billed_units) ? body.meta.billed_units : undefined;
  const tokens = isRecord(body.meta) && isRecord(body.meta.tokens) ? body.meta.tokens : undefined;
  const usage = isRecord(body.usage) ? body.usage : undefined;
  const searchUnits = tokenCount(billed?.search_units) ?? tokenCount(usage?.search_units);
  const inputTokens = tokenCount(usage?.prompt_tokens) ?? tokenCount(usage?.total_tokens) ??
    tokenCount(tokens?.input_tokens) ?? tokenCount(billed?.input_tokens);
  if (searchUnits === undefined && inputTokens === undefined) return undefined;
  return {
    ...(searchUnits === undefined ? {} : { searchUnits }),
    ...(inputTokens === undefined ? {} : { inputTokens }),
  };
}

/** A document as a result carries it back: the upstream's, else the request's own (text as `{text}`). */
export function resultDocument(result: RerankResult, ctx: RerankEncodeContext): unknown {
  if (result.document !== undefined) return result.document;
  const doc = ctx.documents[result.index];
  if (doc === undefined) return undefined;
  return doc.kind === "text" ? { text: doc.text } : doc.fields;
}

/** Cohere's `meta` block: the API version and the search units billed, when the upstream said. */
export function cohereMeta(version: "1" | "2", usage: RerankUsage | undefined): Record<string, unknown> {
  const billed: Record<string, number> = {};
  if (usage?.searchUnits !== undefined) billed.search_units = usage.searchUnits;
  return { api_version: { version }, billed_units: billed };
}
