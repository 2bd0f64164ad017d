import { isRecord } from "../shared/mod.ts";

/** Reads the thought signature Gemini's OpenAI-compatible endpoint puts in `extra_content.google`. */
export function googleSignature(extraContent: unknown): string | undefined {
  if (!isRecord(extraContent) || !isRecord(extraContent.google)) return undefined;
  const signature = extraContent.google.thought_signature;
  return typeof signature === "string" ? signature : undefined;
}
