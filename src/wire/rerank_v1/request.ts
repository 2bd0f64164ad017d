/**
 * `/v1/rerank` requests (Cohere v1, Jina, and the compatible servers vLLM and Infinity): client body →
 * neutral, neutral → upstream body. Documents are strings or objects (`{text, …}`).
 */
import type { GatewayWarning, NeutralRerankRequest, RerankDocument } from "../../model/mod.ts";
import type { EncodedRerankRequest } from "../rerank_codec.ts";
import { droppedField } from "../shared/dropped_field.ts";
import { invalidAt, isRecord } from "../shared/mod.ts";
import {
  documentList,
  modelAndQuery,
  optionalBoolean,
  optionalPositive,
  unmappedFields,
} from "../shared/rerank_common.ts";

const KNOWN = new Set([
  "model",
  "query",
  "documents",
  "top_n",
  "return_documents",
  "max_tokens_per_doc",
  "max_chunks_per_doc",
  "rank_fields",
]);
const TARGET = "a /v1/rerank upstream";

/** Decodes a `/v1/rerank` body; throws GatewayError 400 naming the failing field. */
export function decodeRerankV1Request(body: unknown): NeutralRerankRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const { model, query } = modelAndQuery(body);
  const documents = documentList(body.documents, v1Document);
  const request: { -readonly [K in keyof NeutralRerankRequest]: NeutralRerankRequest[K] } = {
    model,
    query,
    documents,
    source: "v1",
  };
  const topN = optionalPositive(body, "top_n");
  if (topN !== undefined) request.topN = topN;
  const returnDocuments = optionalBoolean(body, "return_documents");
  if (returnDocuments !== undefined) request.returnDocuments = returnDocuments;
  const maxTokens = optionalPositive(body, "max_tokens_per_doc");
  if (maxTokens !== undefined) request.maxTokensPerDoc = maxTokens;
  const maxChunks = optionalPositive(body, "max_chunks_per_doc");
  if (maxChunks !== undefined) request.maxChunksPerDoc = maxChunks;
  if (body.rank_fields !== undefined && body.rank_fields !== null) {
    const fields = body.rank_fields;
    if (!Array.isArray(fields) || fields.some((f) => typeof f !== "string" || f === "")) {
      throw invalidAt(["rank_fields"], "must be an array of field names");
    }
    request.rankFields = fields as string[];
  }
  const extra = unmappedFields(body, KNOWN);
  if (Object.keys(extra).length > 0) request.extra = { format: "v1", fields: extra };
  return request;
}

/** A string, or an object whose `text` (when it has one) is a string. */
function v1Document(item: unknown, index: number): RerankDocument {
  if (typeof item === "string") return { kind: "text", text: item };
  if (!isRecord(item)) throw invalidAt(["documents", index], "must be a string or an object");
  if (item.text === undefined) return { kind: "object", fields: item };
  if (typeof item.text !== "string") throw invalidAt(["documents", index, "text"], "must be a string");
  return { kind: "object", fields: item, text: item.text };
}

/** Encodes a neutral rerank request as a `/v1/rerank` body (Cohere v1 / Jina shape). */
export function encodeRerankV1Request(
  request: NeutralRerankRequest,
  upstreamModel: string,
): EncodedRerankRequest {
  const warnings: GatewayWarning[] = [];
  const body: Record<string, unknown> = {
    ...(request.extra?.format === "v1" ? request.extra.fields : {}),
    model: upstreamModel,
    query: request.query,
    documents: request.documents.map((d) => d.kind === "text" ? d.text : d.fields),
  };
  if (request.topN !== undefined) body.top_n = request.topN;
  if (request.returnDocuments !== undefined) body.return_documents = request.returnDocuments;
  if (request.maxTokensPerDoc !== undefined) body.max_tokens_per_doc = request.maxTokensPerDoc;
  if (request.maxChunksPerDoc !== undefined) body.max_chunks_per_doc = request.maxChunksPerDoc;
  if (request.rankFields !== undefined) body.rank_fields = request.rankFields;
  if (request.extra !== undefined && request.extra.format !== "v1") {
    for (const field of Object.keys(request.extra.fields)) warnings.push(droppedField(field, TARGET));
  }
  return { body, warnings };
}
