import type { TemplateResult } from "lit";
import type { ModelKind } from "../../../../src/model/model_kind.ts";

/** What the Playground can ask a model for: one per data-plane endpoint family. */
export type RequestKind =
  | "chat"
  | "completions"
  | "embeddings"
  | "images"
  | "speech"
  | "transcription"
  | "translation"
  | "rerank";

/** The request kinds a model of each kind serves, the usual one first. */
const KINDS_OF_MODEL: Readonly<Record<ModelKind, readonly RequestKind[]>> = {
  chat: ["chat", "completions"],
  embedding: ["embeddings"],
  rerank: ["rerank"],
  image: ["images"],
  speech: ["speech"],
  transcription: ["transcription", "translation"],
};

/** Every request kind, for a model the listing does not know (typed by hand): the gateway decides. */
export const ALL_REQUEST_KINDS: readonly RequestKind[] = [
  "chat",
  "completions",
  "embeddings",
  "images",
  "speech",
  "transcription",
  "translation",
  "rerank",
];

/** The request kinds to offer for a model of `kind` (undefined: not listed, so all of them). */
export function requestKindsFor(kind: ModelKind | undefined): readonly RequestKind[] {
  return kind === undefined ? ALL_REQUEST_KINDS : KINDS_OF_MODEL[kind];
}

/** A request ready to send: where, its body, and how to show it as the raw request. */
export interface KindRequest {
  readonly path: string;
  /** JSON text, or a multipart form (uploads). */
  readonly body: string | FormData;
  /** The body as the raw-request pane shows it (a file as its name, type and size). */
  readonly shown: string;
}

/** An answer as read so far: its text (JSON, plain text or SSE), or a binary body as an object URL. */
export interface KindAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** An object URL of a binary answer (audio), "" otherwise. */
  readonly blobUrl: string;
  readonly bytes: number;
  readonly done: boolean;
}

/** What a kind shows of an answer: its content and the units it was billed in (count and name). */
export interface KindView {
  readonly content: TemplateResult;
  /** e.g. "3 images", "1,204 characters", "12.5 s of audio"; "" when the kind bills tokens only. */
  readonly units: string;
}

/**
 * One request kind of the Playground: its form (typed per kind as `F`), the request the form makes, and
 * how its answer is shown. One module per kind under ui/src/screens/playground/.
 */
export interface KindModule<F> {
  readonly id: Exclude<RequestKind, "chat">;
  readonly label: string;
  initial(): F;
  fields(form: F, set: (change: Partial<F>) => void): TemplateResult;
  /** The request for `model`; throws an Error with a readable message when the form cannot make one. */
  request(form: F, model: string): KindRequest;
  /** The successful answer's content and units (some units count the request: characters of speech). */
  view(answer: KindAnswer, form: F): KindView;
}

/** A kind module with its form type erased, for the registry (each module stays typed inside). */
export type AnyKindModule = KindModule<object>;

/** Erases a module's form type: the runner hands each module back only the form it made. */
export function anyKind<F extends object>(module: KindModule<F>): AnyKindModule {
  return module as unknown as AnyKindModule;
}

/** Parses JSON text, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON object's field, or undefined. */
export function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Shows a JSON body pretty-printed. */
export function showJson(body: unknown): string {
  return JSON.stringify(body, null, 2);
}

/** An optional positive integer field: undefined when empty; throws naming the field when it is not one. */
export function optionalCount(text: string, name: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1`);
  return n;
}
