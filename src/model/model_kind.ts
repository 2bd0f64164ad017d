/** What a model makes, as the model listings say (`/v1/models` `kind`, `/api/show` capabilities). */
export type ModelKind = "chat" | "embedding" | "rerank" | "image" | "transcription" | "speech";

/** Every model kind, for config and API validation. */
export const MODEL_KINDS: readonly ModelKind[] = [
  "chat",
  "embedding",
  "rerank",
  "image",
  "transcription",
  "speech",
];

/** Models a provider declared the kind of (`kinds` in provider config), by upstream model name. */
export type DeclaredKinds = Readonly<Record<string, ModelKind>>;
