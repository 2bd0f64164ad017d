/**
 * The neutral rerank model (Cohere v2 / Jina `/v1/rerank`): a query, documents, and relevance scores back.
 * Compatible upstreams share one shape, so the codec is passthrough-shaped: this model keeps what the gateway
 * must read (model, counts, usage) and the rest of the body travels verbatim.
 */

/** A document to rank: plain text, or an object (Jina and Cohere v1 accept `{text}`; its text is what is ranked). */
export type RerankDocument =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, unknown>>; readonly text?: string };

/** A rerank request in the middle. */
export interface NeutralRerankRequest {
  /** The model string as the client sent it. */
  readonly model: string;
  readonly query: string;
  readonly documents: readonly RerankDocument[];
  /** How many results to return (Cohere/Jina `top_n`); all when absent. */
  readonly topN?: number;
  /** Whether each result carries its document back. */
  readonly returnDocuments?: boolean;
  /** Fields the decoder did not map (`max_tokens_per_doc`, `rank_fields`, …), sent on verbatim. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** One ranked document. */
export interface RerankResult {
  /** The document's position in the request. */
  readonly index: number;
  readonly relevanceScore: number;
  /** The document, when the request asked for it back (as the upstream returned it). */
  readonly document?: unknown;
}

/** Units a rerank call is billed in: Cohere bills search units, Jina tokens. */
export interface RerankUsage {
  readonly searchUnits?: number;
  readonly inputTokens?: number;
}

/** A rerank answer in the middle: results most relevant first. */
export interface NeutralRerankResponse {
  readonly id?: string;
  readonly model?: string;
  readonly results: readonly RerankResult[];
  readonly usage?: RerankUsage;
}
