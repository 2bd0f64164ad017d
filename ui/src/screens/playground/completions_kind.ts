import { html } from "lit";
import { anyKind, field, jsonOf, optionalCount, showJson } from "./request_kind.ts";

interface CompletionsForm {
  readonly prompt: string;
  readonly maxTokens: string;
  readonly stream: boolean;
}

/** The first choice's text of one `text_completion` object. */
function textOf(completion: unknown): string {
  const choices = field(completion, "choices");
  const text = Array.isArray(choices) ? field(choices[0], "text") : undefined;
  return typeof text === "string" ? text : "";
}

/** The text so far of a streamed answer: every `data:` chunk's first choice, in order. */
function streamedText(raw: string): string {
  return raw.split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== "[DONE]")
    .map((data) => textOf(jsonOf(data)))
    .join("");
}

/** Legacy completions (`POST /v1/completions`): prompt → text, streamed or not. */
export const completionsKind = anyKind<CompletionsForm>({
  id: "completions",
  label: "Completions (legacy)",
  initial: () => ({ prompt: "Once upon a time", maxTokens: "", stream: true }),
  fields: (f, set) =>
    html`
      <label class="f">Prompt
        <textarea name="prompt" .value=${f.prompt}
          @input=${(e: Event) => set({ prompt: (e.target as HTMLTextAreaElement).value })}></textarea></label>
      <div class="row">
        <label class="check"><input type="checkbox" name="stream" .checked=${f.stream}
          @change=${(e: Event) => set({ stream: (e.target as HTMLInputElement).checked })}> Stream</label>
        <label class="f">Max tokens
          <input name="max_tokens" type="number" min="1" .value=${f.maxTokens}
            @input=${(e: Event) => set({ maxTokens: (e.target as HTMLInputElement).value })}></label>
      </div>
    `,
  request: (f, model) => {
    if (f.prompt === "") throw new Error("Give a prompt");
    const maxTokens = optionalCount(f.maxTokens, "Max tokens");
    const body = {
      model,
      prompt: f.prompt,
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(f.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    return { path: "/v1/completions", body: JSON.stringify(body), shown: showJson(body) };
  },
  view: (answer) => ({
    units: "",
    content: html`<div class="answer" data-testid="pg-answer">${
      answer.contentType.includes("text/event-stream")
        ? streamedText(answer.text)
        : textOf(jsonOf(answer.text))
    }</div>`,
  }),
});
