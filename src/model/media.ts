/**
 * The neutral images and audio models. Chat's neutral request has no place for generated pictures or
 * sound, so these kinds are their own beside it (as embeddings are).
 */
import type { Usage } from "./usage.ts";

/** A file a client uploaded in a multipart body (an image to edit, a mask, audio to transcribe). */
export interface UploadedFile {
  /** The form field it came in (`image`, `image[]`, `mask`, `file`). */
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly data: Uint8Array<ArrayBuffer>;
}

/** A multipart body as plain data: text fields (the last value of a repeated name wins) and files. */
export interface MultipartBody {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly UploadedFile[];
}

/** How a client wants its images: a URL, or base64 in the JSON answer. */
export type ImageResponseFormat = "url" | "b64_json";

/** An image generation (no `images`) or edit (`images` to change, an optional `mask`). */
export interface NeutralImageRequest {
  /** The model string as the client sent it (`<prefix>/<model>` or a combo name). */
  readonly model: string;
  readonly prompt: string;
  /** Images asked for (at least 1). */
  readonly n: number;
  readonly size?: string;
  readonly quality?: string;
  /** What the client asked for; absent means the upstream's default (url for dall-e, b64 for gpt-image-1). */
  readonly responseFormat?: ImageResponseFormat;
  /** Edits: the images to change; empty for a generation. */
  readonly images: readonly UploadedFile[];
  readonly mask?: UploadedFile;
  /** OpenAI fields not mapped (`style`, `background`, `output_format`, `user`, …), for OpenAI upstreams. */
  readonly extra?: Readonly<Record<string, string | number | boolean>>;
}

/** One generated image. */
export interface GeneratedImage {
  /** Base64 of the image bytes. */
  readonly b64?: string;
  readonly url?: string;
  /** e.g. `image/png`, when the upstream said. */
  readonly mediaType?: string;
  readonly revisedPrompt?: string;
}

/** The images an upstream made, and the token usage it reported (gpt-image-1, Gemini), if any. */
export interface NeutralImageResponse {
  readonly created?: number;
  readonly images: readonly GeneratedImage[];
  readonly usage?: Usage;
}

/** A transcription or translation: one audio file and OpenAI's text fields (sent on as they came). */
export interface NeutralTranscriptionRequest {
  readonly model: string;
  readonly file: UploadedFile;
  /** Streamed transcription events (`stream=true`). */
  readonly stream: boolean;
  /** The form's other text fields (`language`, `prompt`, `response_format`, …), model and stream excluded. */
  readonly fields: Readonly<Record<string, string>>;
}

/** Text to speech: the JSON body, sent on with the upstream's model name. */
export interface NeutralSpeechRequest {
  readonly model: string;
  readonly input: string;
  readonly body: Readonly<Record<string, unknown>>;
}
