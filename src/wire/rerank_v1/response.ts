/** `/v1/rerank` answers: the client body (Cohere v1's `meta` and Jina's `usage` side by side). */
import type { NeutralRerankResponse } from "../../model/mod.ts";
import type { RerankEncodeContext } from "../rerank_codec.ts";
import { cohereMeta, resultDocument } from "../shared/rerank_common.ts";

/**
 * Encodes neutral results as a `/v1/rerank` answer. Documents come back when the client asked
 * (`return_documents: true`), never when it refused them, and as the upstream answered when it said nothing
 * (Jina returns them by default, Cohere does not). Cohere clients read `meta.billed_units`, Jina clients
 * `usage.total_tokens`; both are given when known.
 */
export function encodeRerankV1Response(
  response: NeutralRerankResponse,
  ctx: RerankEncodeContext,
): Record<string, unknown> {
  const results = response.results.map((r) => {
    const entry: Record<string, unknown> = { index: r.index, relevance_score: r.relevanceScore };
    const send = ctx.returnDocuments ?? r.document !== undefined;
    if (send) entry.document = resultDocument(r, ctx);
    return entry;
  });
  return {
    ...(response.id === undefined ? {} : { id: response.id }),
    // The client sees the model id it asked for (prefix/model or a combo), never the upstream's name.
    model: ctx.requestModel,
    results,
    meta: cohereMeta("1", response.usage),
    ...(response.usage?.inputTokens === undefined
      ? {}
      : { usage: { total_tokens: response.usage.inputTokens } }),
  };
}
