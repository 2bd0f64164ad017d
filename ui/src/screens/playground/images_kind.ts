import { html } from "lit";
import { anyKind, field, jsonOf, optionalCount, showJson } from "./request_kind.ts";
import { fileField, multipart } from "./upload.ts";

interface ImagesForm {
  readonly prompt: string;
  readonly size: string;
  readonly n: string;
  readonly responseFormat: "b64_json" | "url";
  /** An image to edit (`/v1/images/edits`); null generates a new one. */
  readonly image: File | null;
}

const SIZES = ["", "256x256", "512x512", "1024x1024", "1024x1536", "1536x1024", "1792x1024", "1024x1792"];

/** Where each image of the answer can be shown from: its URL, or its base64 as a data URL. */
function imageSources(text: string): string[] {
  const data = field(jsonOf(text), "data");
  if (!Array.isArray(data)) return [];
  return data.flatMap((item) => {
    const b64 = field(item, "b64_json");
    if (typeof b64 === "string") return [`data:image/png;base64,${b64}`];
    const url = field(item, "url");
    return typeof url === "string" ? [url] : [];
  });
}

/** Images (`POST /v1/images/generations`, or `/v1/images/edits` with an image): prompt → pictures. */
export const imagesKind = anyKind<ImagesForm>({
  id: "images",
  label: "Images",
  initial: () => ({
    prompt: "A red apple on a wooden table",
    size: "",
    n: "1",
    responseFormat: "b64_json",
    image: null,
  }),
  fields: (f, set) =>
    html`
      <label class="f">Prompt
        <textarea name="prompt" .value=${f.prompt}
          @input=${(e: Event) => set({ prompt: (e.target as HTMLTextAreaElement).value })}></textarea></label>
      <div class="row">
        <label class="f">Size
          <select name="size" @change=${(e: Event) => set({ size: (e.target as HTMLSelectElement).value })}>
            ${SIZES.map((s) =>
              html`<option value=${s} ?selected=${s === f.size}>${s || "model default"}</option>`
            )}
          </select></label>
        <label class="f">Images
          <input name="n" type="number" min="1" .value=${f.n}
            @input=${(e: Event) => set({ n: (e.target as HTMLInputElement).value })}></label>
        <label class="f">Answer as
          <select name="response_format" @change=${(e: Event) =>
            set({ responseFormat: (e.target as HTMLSelectElement).value as ImagesForm["responseFormat"] })}>
            <option value="b64_json" ?selected=${f.responseFormat === "b64_json"}>b64_json</option>
            <option value="url" ?selected=${f.responseFormat === "url"}>url</option>
          </select></label>
      </div>
      ${fileField("Image to edit (optional: sends an edit)", "image", "image/*", (image) => set({ image }))}
    `,
  request: (f, model) => {
    if (f.prompt.trim() === "") throw new Error("Give a prompt");
    const n = optionalCount(f.n, "Images");
    const size = f.size === "" ? undefined : f.size;
    if (f.image !== null) {
      const form = multipart({
        model,
        prompt: f.prompt,
        image: f.image,
        n: n === undefined ? undefined : String(n),
        size,
        response_format: f.responseFormat,
      });
      return { path: "/v1/images/edits", ...form };
    }
    const body = { model, prompt: f.prompt, n, size, response_format: f.responseFormat };
    return { path: "/v1/images/generations", body: JSON.stringify(body), shown: showJson(body) };
  },
  view: (answer) => {
    const sources = imageSources(answer.text);
    return {
      units: `${sources.length} ${sources.length === 1 ? "image" : "images"}`,
      content: html`<div class="stack-sm" data-testid="pg-images">${
        sources.map((src, i) => html`<img class="generated" alt=${`image ${i + 1}`} src=${src}>`)
      }</div>`,
    };
  },
});
