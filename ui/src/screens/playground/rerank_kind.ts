import { html } from "lit";
import { anyKind, field, jsonOf, optionalCount, showJson } from "./request_kind.ts";

interface RerankForm {
  readonly query: string;
  /** One document a line. */
  readonly documents: string;
  readonly topN: string;
}

/** The form's documents, in the order sent (the answer names them by index). */
function documentsOf(form: RerankForm): string[] {
  return form.documents.split("\n").filter((line) => line.trim() !== "");
}

/** Rerank (`POST /v1/rerank`, Cohere v1 / Jina shape): a query and documents → documents by relevance. */
export const rerankKind = anyKind<RerankForm>({
  id: "rerank",
  label: "Rerank",
  initial: () => ({
    query: "What is the capital of France?",
    documents:
      "Paris is the capital of France.\nBerlin is the capital of Germany.\nThe Seine flows through Paris.",
    topN: "",
  }),
  fields: (f, set) =>
    html`
      <label class="f">Query
        <input name="query" .value=${f.query}
          @input=${(e: Event) => set({ query: (e.target as HTMLInputElement).value })}></label>
      <label class="f">Documents (one a line)
        <textarea name="documents" .value=${f.documents}
          @input=${(e: Event) =>
            set({ documents: (e.target as HTMLTextAreaElement).value })}></textarea></label>
      <label class="f">Top N
        <input name="top_n" type="number" min="1" .value=${f.topN} placeholder="all"
          @input=${(e: Event) => set({ topN: (e.target as HTMLInputElement).value })}></label>
    `,
  request: (f, model) => {
    if (f.query.trim() === "") throw new Error("Give a query");
    const documents = documentsOf(f);
    if (documents.length === 0) throw new Error("Give at least one document");
    const topN = optionalCount(f.topN, "Top N");
    const body = { model, query: f.query, documents, ...(topN === undefined ? {} : { top_n: topN }) };
    return { path: "/v1/rerank", body: JSON.stringify(body), shown: showJson(body) };
  },
  view: (answer, f) => {
    const json = jsonOf(answer.text);
    const results = field(json, "results");
    const documents = documentsOf(f);
    const units = field(field(field(json, "meta"), "billed_units"), "search_units");
    return {
      units: typeof units === "number" ? `${units} search ${units === 1 ? "unit" : "units"}` : "",
      content: html`<ol class="ranked" data-testid="pg-ranked">${
        (Array.isArray(results) ? results : []).map((r) => {
          const index = field(r, "index");
          const score = field(r, "relevance_score");
          const text = typeof index === "number" ? documents[index] ?? `#${index}` : "?";
          return html`<li><b>${typeof score === "number" ? score.toFixed(3) : "–"}</b> ${text}</li>`;
        })
      }</ol>`,
    };
  },
});
