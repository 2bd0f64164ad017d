/**
 * What a model name says it makes, for the non-chat endpoints: a model that plainly names a chat family
 * (gpt-4o, claude-…, gemini-2.5-flash) asked for images or audio gets a clear 400 instead of an upstream 404.
 * Names that say nothing either way are let through: the upstream decides. A provider may declare a model's
 * kind (YAML `providers[].kinds`); a declared kind wins over the name.
 */
import type { DeclaredKinds, ModelKind } from "../model/model_kind.ts";

export type { DeclaredKinds, ModelKind };

/** The media endpoints' kinds. */
export type MediaKind = "image_generation" | "image_edit" | "transcription" | "translation" | "speech";

const IMAGE = /(dall-e|gpt-image|imagen|image|flux|stable-diffusion|sdxl|sd3|midjourney|kolors|seedream)/;
const TRANSCRIBE = /(whisper|transcribe|stt|asr|speech-to-text)/;
const SPEECH = /(tts|speech|voice|audio)/;
const CHAT =
  /(^|\/)(gpt-|chatgpt|o\d|claude|gemini|gemma|llama|mistral|mixtral|qwen|deepseek|grok|phi-|command|kimi|glm)/;

/** The kind a model name says it is; names that say nothing are chat models (what most upstreams serve). */
export function modelKindOf(model: string): ModelKind {
  const name = model.toLowerCase();
  // Before `embed`: rerankers are often named after the embedding family they pair with.
  if (/rerank/.test(name)) return "rerank";
  if (/embed/.test(name)) return "embedding";
  if (IMAGE.test(name)) return "image";
  if (TRANSCRIBE.test(name)) return "transcription";
  if (/(tts|text-to-speech)/.test(name)) return "speech";
  return "chat";
}

/** A model's kind: the one its provider declared, else what its name says. */
export function kindOfModel(model: string, declared?: DeclaredKinds): ModelKind {
  return (declared !== undefined && Object.hasOwn(declared, model) ? declared[model] : undefined) ??
    modelKindOf(model);
}

/** The model kind each media endpoint needs. */
const MEDIA_MODEL_KIND: Readonly<Record<MediaKind, ModelKind>> = {
  image_generation: "image",
  image_edit: "image",
  transcription: "transcription",
  translation: "transcription",
  speech: "speech",
};

/**
 * False when `model` (the upstream's name) is recognisably a model of another kind than `kind`, or its
 * provider declared another kind for it.
 */
export function mayServe(kind: MediaKind, model: string, declared?: DeclaredKinds): boolean {
  if (declared !== undefined && Object.hasOwn(declared, model)) {
    return declared[model] === MEDIA_MODEL_KIND[kind];
  }
  const name = model.toLowerCase();
  const says = kind === "image_generation" || kind === "image_edit"
    ? IMAGE
    : kind === "speech"
    ? SPEECH
    : TRANSCRIBE;
  if (says.test(name)) return true;
  return !CHAT.test(name) && !/embed|rerank/.test(name);
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
