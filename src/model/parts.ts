import type { Extra } from "./extra.ts";

/** A prompt-caching breakpoint as the messages format expresses it. */
export interface CacheControl {
  readonly type: "ephemeral";
  readonly ttl?: string;
}

/**
 * The provider family that produced a reasoning signature. Signatures are only valid when replayed to
 * the same family, so encoders drop signed reasoning that belongs to another one.
 */
export type ProviderFamily = "anthropic" | "openai" | "google" | "other";

/** Plain text. */
export interface TextPart {
  readonly kind: "text";
  readonly text: string;
  readonly cacheControl?: CacheControl;
  readonly extra?: Extra;
}

/** Where an image's bytes come from. */
export type ImageSource =
  | { readonly type: "url"; readonly url: string }
  | { readonly type: "base64"; readonly mediaType: string; readonly data: string };

/** An image, by URL or inline base64. */
export interface ImagePart {
  readonly kind: "image";
  readonly source: ImageSource;
  /** OpenAI's `detail` hint (low | high | auto), kept when present. */
  readonly detail?: string;
  readonly cacheControl?: CacheControl;
  readonly extra?: Extra;
}

/** A tool call made by the assistant; `arguments` is the raw JSON text, never re-serialised. */
export interface ToolCallPart {
  readonly kind: "toolCall";
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** Gemini's thoughtSignature on a functionCall part, replayed verbatim to the same family. */
  readonly signature?: string;
  readonly family?: ProviderFamily;
  readonly extra?: Extra;
}

/** The result of one tool call, sent back by the client. */
export interface ToolResultPart {
  readonly kind: "toolResult";
  readonly callId: string;
  /** The tool's name where the format carries it (Gemini, local runner need it). */
  readonly name?: string;
  readonly content: readonly (TextPart | ImagePart)[];
  readonly isError?: boolean;
  readonly cacheControl?: CacheControl;
  readonly extra?: Extra;
}

/** Model reasoning ("thinking"). A redacted block carries opaque `data` instead of text. */
export interface ReasoningPart {
  readonly kind: "reasoning";
  readonly text: string;
  readonly signature?: string;
  /** Opaque encrypted reasoning (Anthropic redacted_thinking data, OpenAI encrypted_content). */
  readonly redactedData?: string;
  readonly family?: ProviderFamily;
  readonly extra?: Extra;
}

/** Any content part of a message or response. */
export type Part = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart;

/** Joins the text of text parts; used where a format only carries a string. */
export function partsText(parts: readonly Part[]): string {
  let out = "";
  for (const part of parts) if (part.kind === "text") out += part.text;
  return out;
}
