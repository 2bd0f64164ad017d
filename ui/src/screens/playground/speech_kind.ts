import { html } from "lit";
import { formatInt } from "../../lib/format.ts";
import { anyKind, showJson } from "./request_kind.ts";

interface SpeechForm {
  readonly input: string;
  readonly voice: string;
  readonly format: string;
}

const VOICES = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];
const FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"];

/** Speech (`POST /v1/audio/speech`): text → audio, billed per character of the input. */
export const speechKind = anyKind<SpeechForm>({
  id: "speech",
  label: "Speech",
  initial: () => ({ input: "Hello from the gateway.", voice: "alloy", format: "mp3" }),
  fields: (f, set) =>
    html`
      <label class="f">Text
        <textarea name="input" .value=${f.input}
          @input=${(e: Event) => set({ input: (e.target as HTMLTextAreaElement).value })}></textarea></label>
      <div class="row">
        <label class="f">Voice
          <input name="voice" list="pg-voices" .value=${f.voice}
            @input=${(e: Event) => set({ voice: (e.target as HTMLInputElement).value })}></label>
        <datalist id="pg-voices">${VOICES.map((v) => html`<option value=${v}></option>`)}</datalist>
        <label class="f">Format
          <select name="response_format" @change=${(e: Event) =>
            set({ format: (e.target as HTMLSelectElement).value })}>
            ${FORMATS.map((x) => html`<option value=${x} ?selected=${x === f.format}>${x}</option>`)}
          </select></label>
      </div>
    `,
  request: (f, model) => {
    if (f.input.trim() === "") throw new Error("Give the text to speak");
    if (f.voice.trim() === "") throw new Error("Give a voice");
    const body = { model, input: f.input, voice: f.voice.trim(), response_format: f.format };
    return { path: "/v1/audio/speech", body: JSON.stringify(body), shown: showJson(body) };
  },
  view: (answer, f) => ({
    units: `${formatInt(f.input.length)} characters`,
    content: html`
      <audio controls data-testid="pg-audio" src=${answer.blobUrl}></audio>
      <div class="muted small" data-testid="pg-answer">${answer.contentType || "audio"}, ${formatInt(
        answer.bytes,
      )} bytes</div>
    `,
  }),
});
