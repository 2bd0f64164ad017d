import { html } from "lit";
import { anyKind, field, jsonOf } from "./request_kind.ts";
import { fileField, multipart } from "./upload.ts";

interface TranscriptionForm {
  readonly file: File | null;
  readonly prompt: string;
  readonly responseFormat: "json" | "verbose_json" | "text";
}

/** Transcription or translation (`/v1/audio/transcriptions|translations`): an audio upload → text. */
function audioToText(id: "transcription" | "translation", label: string, path: string) {
  return anyKind<TranscriptionForm>({
    id,
    label,
    initial: () => ({ file: null, prompt: "", responseFormat: "json" }),
    fields: (f, set) =>
      html`
        ${fileField("Audio file", "file", "audio/*,video/*", (file) => set({ file }))}
        <label class="f">Prompt (optional: spelling hints, the previous segment)
          <input name="prompt" .value=${f.prompt}
            @input=${(e: Event) => set({ prompt: (e.target as HTMLInputElement).value })}></label>
        <label class="f">Answer as
          <select name="response_format" @change=${(e: Event) =>
            set({
              responseFormat: (e.target as HTMLSelectElement).value as TranscriptionForm["responseFormat"],
            })}>
            ${(["json", "verbose_json", "text"] as const).map((x) =>
              html`<option value=${x} ?selected=${x === f.responseFormat}>${x}</option>`
            )}
          </select></label>
      `,
    request: (f, model) => {
      if (f.file === null) throw new Error("Pick an audio file");
      const form = multipart({
        model,
        file: f.file,
        response_format: f.responseFormat,
        prompt: f.prompt === "" ? undefined : f.prompt,
      });
      return { path, ...form };
    },
    view: (answer) => {
      const json = jsonOf(answer.text);
      const text = field(json, "text");
      const duration = field(json, "duration");
      return {
        units: typeof duration === "number" ? `${duration} s of audio` : "",
        content: html`<div class="answer" data-testid="pg-answer">${
          typeof text === "string" ? text : answer.text
        }</div>`,
      };
    },
  });
}

/** Transcription: speech in any language → text in that language. */
export const transcriptionKind = audioToText("transcription", "Transcription", "/v1/audio/transcriptions");

/** Translation: speech in any language → English text. */
export const translationKind = audioToText(
  "translation",
  "Translation (to English)",
  "/v1/audio/translations",
);
