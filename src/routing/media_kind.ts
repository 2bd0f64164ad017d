/**
 * What a model name says it makes, for the non-chat endpoints: a model that plainly names a chat family
 * (gpt-4o, claude-…, gemini-2.5-flash) asked for images or audio gets a clear 400 instead of an upstream 404.
 * Names that say nothing either way are let through: the upstream decides.
 */

/** The media endpoints' kinds. */
export type MediaKind = "image_generation" | "image_edit" | "transcription" | "translation" | "speech";

const IMAGE = /(dall-e|gpt-image|imagen|image|flux|stable-diffusion|sdxl|sd3|midjourney|kolors|seedream)/;
const TRANSCRIBE = /(whisper|transcribe|stt|asr|speech-to-text)/;
const SPEECH = /(tts|speech|voice|audio)/;
const CHAT =
  /(^|\/)(gpt-|chatgpt|o\d|claude|gemini|gemma|llama|mistral|mixtral|qwen|deepseek|grok|phi-|command|kimi|glm)/;

/** What a model makes, as the model listings say (`/v1/models` `kind`, `/api/show` capabilities). */
export type ModelKind = "chat" | "embedding" | "image" | "transcription" | "speech";

/** The kind a model name says it is; names that say nothing are chat models (what most upstreams serve). */
export function modelKindOf(model: string): ModelKind {
  const name = model.toLowerCase();
  if (/embed/.test(name)) return "embedding";
  if (IMAGE.test(name)) return "image";
  if (TRANSCRIBE.test(name)) return "transcription";
  if (/(tts|text-to-speech)/.test(name)) return "speech";
  return "chat";
}

/** False when `model` (the upstream's name) is recognisably a model of another kind than `kind`. */
export function mayServe(kind: MediaKind, model: string): boolean {
  const name = model.toLowerCase();
  const says = kind === "image_generation" || kind === "image_edit"
    ? IMAGE
    : kind === "speech"
    ? SPEECH
    : TRANSCRIBE;
  if (says.test(name)) return true;
  return !CHAT.test(name) && !/embed/.test(name);
}

/** The endpoint's name in messages. */
export function mediaKindLabel(kind: MediaKind): string {
  switch (kind) {
    case "image_generation":
      return "image generation";
    case "image_edit":
      return "image edits";
    case "transcription":
      return "audio transcription";
    case "translation":
      return "audio translation";
    case "speech":
      return "speech";
  }
}
