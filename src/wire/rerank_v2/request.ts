/**
 * Cohere `/v2/rerank` requests: client body → neutral, neutral → upstream body. v2 takes documents as plain
 * strings only (Cohere asks for structured data as YAML strings) and has no `return_documents`; the gateway
 * still honours `return_documents: true` from a v2 client, since answering it costs nothing.
 */
import { type GatewayWarning, type NeutralRerankRequest, warning } from "../../model/mod.ts";
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

const KNOWN = new Set(["model", "query", "documents", "top_n", "max_tokens_per_doc", "return_documents"]);
const TARGET = "a Cohere v2 rerank upstream";

/** Decodes a `/v2/rerank` body; throws GatewayError 400 naming the failing field. */
export function decodeRerankV2Request(body: unknown): NeutralRerankRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const { model, query } = modelAndQuery(body);
  const documents = documentList(body.documents, (item, index) => {
    if (typeof item !== "string") {
      throw invalidAt(
        ["documents", index],
        "must be a string (Cohere v2 ranks text; send structured data as a YAML string, or use /v1/rerank)",
      );
    }
    return { kind: "text", text: item };
  });
  const request: { -readonly [K in keyof NeutralRerankRequest]: NeutralRerankRequest[K] } = {
    model,
    query,
    documents,
    source: "v2",
  };
  const topN = optionalPositive(body, "top_n");
  if (topN !== undefined) request.topN = topN;
  const maxTokens = optionalPositive(body, "max_tokens_per_doc");
  if (maxTokens !== undefined) request.maxTokensPerDoc = maxTokens;
  const returnDocuments = optionalBoolean(body, "return_documents");
  if (returnDocuments !== undefined) request.returnDocuments = returnDocuments;
  const extra = unmappedFields(body, KNOWN);
  if (Object.keys(extra).length > 0) request.extra = { format: "v2", fields: extra };
  return request;
}

/**
 * Encodes a neutral rerank request as a Cohere `/v2/rerank` body. Object documents go as their text (or
 * their JSON when they have none), with a warning; v1-only fields are dropped with one each.
 */
export function encodeRerankV2Request(
  request: NeutralRerankRequest,
  upstreamModel: string,
): EncodedRerankRequest {
  const warnings: GatewayWarning[] = [];
  let flattened = 0;
  const documents = request.documents.map((d) => {
    if (d.kind === "text") return d.text;
    flattened++;
    return d.text ?? JSON.stringify(d.fields);
  });
  if (flattened > 0) {
    warnings.push(
      warning(
        "changed_field:documents",
        `${flattened} object document(s) were sent as text: Cohere v2 ranks strings only.`,
        { count: flattened },
      ),
    );
  }
  const body: Record<string, unknown> = {
    ...(request.extra?.format === "v2" ? request.extra.fields : {}),
    model: upstreamModel,
    query: request.query,
    documents,
  };
  if (request.topN !== undefined) body.top_n = request.topN;
  if (request.maxTokensPerDoc !== undefined) body.max_tokens_per_doc = request.maxTokensPerDoc;
  // Documents asked back are filled in from the request (src/wire/shared/rerank_common.ts resultDocument).
  if (request.maxChunksPerDoc !== undefined) {
    warnings.push(
      droppedField("max_chunks_per_doc", TARGET, "Cohere v2 cuts documents by max_tokens_per_doc"),
    );
  }
  if (request.rankFields !== undefined) {
    warnings.push(droppedField("rank_fields", TARGET, "Cohere v2 ranks text documents only"));
  }
  if (request.extra !== undefined && request.extra.format !== "v2") {
    for (const field of Object.keys(request.extra.fields)) warnings.push(droppedField(field, TARGET));
  }
  return { body, warnings };
}
