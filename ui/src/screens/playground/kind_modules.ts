import type { AnyKindModule, RequestKind } from "./request_kind.ts";
import { completionsKind } from "./completions_kind.ts";
import { embeddingsKind } from "./embeddings_kind.ts";
import { imagesKind } from "./images_kind.ts";
import { rerankKind } from "./rerank_kind.ts";
import { speechKind } from "./speech_kind.ts";
import { transcriptionKind, translationKind } from "./transcription_kind.ts";

/** Every request kind besides chat (which the Playground screen itself runs), by id. */
export const KIND_MODULES: Readonly<Record<Exclude<RequestKind, "chat">, AnyKindModule>> = {
  completions: completionsKind,
  embeddings: embeddingsKind,
  images: imagesKind,
  speech: speechKind,
  transcription: transcriptionKind,
  translation: translationKind,
  rerank: rerankKind,
};

/** A request kind's name in the kind picker. */
export function requestKindLabel(kind: RequestKind): string {
  return kind === "chat" ? "Chat" : KIND_MODULES[kind].label;
}
