/**
 * The neutral rerank model: a query, documents, and relevance scores back. Clients speak Cohere's v1 shape
 * (also Jina's, vLLM's and Infinity's `/v1/rerank`) or Cohere's v2 (`/v2/rerank`); upstreams are
 * compatible servers at `<base>/rerank`. The model keeps what the gateway must read (model, documents,
 * counts, usage); fields no decoder maps travel in `extra`, verbatim, to an upstream of the same format.
 */

/** The rerank wire formats: `v1` = Cohere v1 / Jina / compatible servers, `v2` = Cohere v2 (text documents only). */
export type RerankFormat = "v1" | "v2";

/** A document to rank: plain text, or an object (Cohere v1 and Jina accept one; `text` is what is ranked). */
export type RerankDocument =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, unknown>>; readonly text?: string };

/** A rerank request in the middle. */
export interface NeutralRerankRequest {
  /** The model string as the client sent it. */
  readonly model: string;
  readonly query: string;
  readonly documents: readonly RerankDocument[];
  /** How many results to return (`top_n`); all when absent. */
  readonly topN?: number;
  /** Whether each result carries its document back; absent: the upstream's default (Jina yes, Cohere no). */
  readonly returnDocuments?: boolean;
  /** Cohere: long documents are cut to this many tokens (`max_tokens_per_doc`). */
  readonly maxTokensPerDoc?: number;
  /** Cohere v1: how many chunks a long document is split into (`max_chunks_per_doc`). */
  readonly maxChunksPerDoc?: number;
  /** Cohere v1: which fields of object documents are ranked (`rank_fields`). */
  readonly rankFields?: readonly string[];
  /** The client's format. */
  readonly source: RerankFormat;
  /** Fields the decoder did not map (`priority`, `truncation`, …), sent on verbatim to the same format. */
  readonly extra?: { readonly format: RerankFormat; readonly fields: Readonly<Record<string, unknown>> };
}

/** One ranked document. */
export interface RerankResult {
  /** The document's position in the request. */
  readonly index: number;
  readonly relevanceScore: number;
  /** The document, when the upstream returned it (as it returned it). */
  readonly document?: unknown;
}

/** Units a rerank call is billed in: Cohere bills search units, Jina and compatible servers tokens. */
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
