/** Cohere `/v2/rerank` answers: the client body. */
import type { NeutralRerankResponse } from "../../model/mod.ts";
import type { RerankEncodeContext } from "../rerank_codec.ts";
import { cohereMeta, resultDocument } from "../shared/rerank_common.ts";

/**
 * Encodes neutral results as a Cohere v2 answer: `{id, results: [{index, relevance_score}], meta}`. v2 returns
 * no documents; a client that sent `return_documents: true` anyway gets each one back as `{text}`.
 */
export function encodeRerankV2Response(
  response: NeutralRerankResponse,
  ctx: RerankEncodeContext,
): Record<string, unknown> {
  const results = response.results.map((r) => {
    const entry: Record<string, unknown> = { index: r.index, relevance_score: r.relevanceScore };
    if (ctx.returnDocuments === true) entry.document = resultDocument(r, ctx);
    return entry;
  });
  return {
    ...(response.id === undefined ? {} : { id: response.id }),
    results,
    meta: cohereMeta("2", response.usage),
  };
}
