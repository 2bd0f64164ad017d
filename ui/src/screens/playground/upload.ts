import { html, type TemplateResult } from "lit";

/** A file input that hands the picked file (or null) to `pick`. */
export function fileField(
  label: string,
  name: string,
  accept: string,
  pick: (file: File | null) => void,
): TemplateResult {
  return html`<label class="f">${label}
    <input type="file" name=${name} accept=${accept}
      @change=${(e: Event) => pick((e.target as HTMLInputElement).files?.[0] ?? null)}></label>`;
}

/** A multipart body and how the raw-request pane shows it: text fields as they are, files summarised. */
export function multipart(
  fields: Readonly<Record<string, string | File | undefined>>,
): { body: FormData; shown: string } {
  const body = new FormData();
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    body.append(name, value);
    shown[name] = typeof value === "string"
      ? value
      : `(file ${value.name}, ${value.type || "unknown type"}, ${value.size} bytes)`;
  }
  return { body, shown: `multipart/form-data\n${JSON.stringify(shown, null, 2)}` };
}
