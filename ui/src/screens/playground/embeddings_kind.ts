import { html } from "lit";
import { anyKind, field, jsonOf, optionalCount, showJson } from "./request_kind.ts";

interface EmbeddingsForm {
  /** One input text a line. */
  readonly input: string;
  readonly dimensions: string;
  readonly encoding: "float" | "base64";
}

/** How many leading values of the first vector to show. */
const SHOWN_VALUES = 8;

/** A vector as the answer gives it: numbers, or base64 of little-endian float32s (`encoding_format: base64`). */
function vectorOf(embedding: unknown): number[] {
  if (Array.isArray(embedding)) return embedding.filter((v): v is number => typeof v === "number");
  if (typeof embedding !== "string") return [];
  const bytes = Uint8Array.from(atob(embedding), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({ length: Math.floor(bytes.length / 4) }, (_, i) => view.getFloat32(i * 4, true));
}

/** Embeddings (`POST /v1/embeddings`): input texts → vectors. */
export const embeddingsKind = anyKind<EmbeddingsForm>({
  id: "embeddings",
  label: "Embeddings",
  initial: () => ({ input: "The quick brown fox", dimensions: "", encoding: "float" }),
  fields: (f, set) =>
    html`
      <label class="f">Input texts (one a line)
        <textarea name="input" .value=${f.input}
          @input=${(e: Event) => set({ input: (e.target as HTMLTextAreaElement).value })}></textarea></label>
      <div class="row">
        <label class="f">Dimensions
          <input name="dimensions" type="number" min="1" .value=${f.dimensions} placeholder="model default"
            @input=${(e: Event) => set({ dimensions: (e.target as HTMLInputElement).value })}></label>
        <label class="f">Encoding
          <select name="encoding_format" @change=${(e: Event) =>
            set({ encoding: (e.target as HTMLSelectElement).value as EmbeddingsForm["encoding"] })}>
            <option value="float" ?selected=${f.encoding === "float"}>float</option>
            <option value="base64" ?selected=${f.encoding === "base64"}>base64</option>
          </select></label>
      </div>
    `,
  request: (f, model) => {
    const texts = f.input.split("\n").filter((line) => line.trim() !== "");
    if (texts.length === 0) throw new Error("Give at least one input text");
    const dimensions = optionalCount(f.dimensions, "Dimensions");
    const body = {
      model,
      input: texts.length === 1 ? texts[0] : texts,
      encoding_format: f.encoding,
      ...(dimensions === undefined ? {} : { dimensions }),
    };
    return { path: "/v1/embeddings", body: JSON.stringify(body), shown: showJson(body) };
  },
  view: (answer) => {
    const data = field(jsonOf(answer.text), "data");
    const vectors = Array.isArray(data) ? data.map((d) => vectorOf(field(d, "embedding"))) : [];
    const first = vectors[0] ?? [];
    return {
      units: `${vectors.length} ${vectors.length === 1 ? "vector" : "vectors"}`,
      content: html`
        <div class="meta">
          <div><span>Vectors</span><b data-testid="pg-vectors">${vectors.length}</b></div>
          <div><span>Dimensions</span><b data-testid="pg-dimensions">${first.length}</b></div>
        </div>
        <div class="answer" data-testid="pg-answer">${first.slice(0, SHOWN_VALUES).map((v) => v.toFixed(4))
          .join(", ")}${first.length > SHOWN_VALUES ? ", …" : ""}</div>
      `,
    };
  },
});
