import type { ImagePart } from "../../model/mod.ts";

/** Media type used when the bytes match no known signature (Ollama clients send mostly PNG). */
export const DEFAULT_IMAGE_MEDIA_TYPE = "image/png";

/** How much of an image's base64 its type is read from (12 bytes: the longest signature, webp's, and more). */
export const SNIFFED_BASE64_CHARS = 16;

/** Reads the first bytes of base64 text; undefined when the text is not base64. */
function leadingBytes(base64: string): Uint8Array | undefined {
  try {
    const head = atob(base64.slice(0, SNIFFED_BASE64_CHARS));
    return Uint8Array.from(head, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((b, i) => bytes[offset + i] === b);
}

/** Detects png, jpeg, gif or webp from the magic bytes of base64 data; falls back to image/png. */
export function detectImageMediaType(base64: string): string {
  const bytes = leadingBytes(base64);
  if (!bytes) return DEFAULT_IMAGE_MEDIA_TYPE;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return "image/webp";
  }
  return DEFAULT_IMAGE_MEDIA_TYPE;
}

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?,/;

/**
 * An Ollama `images[]` entry as an image part. Ollama wants bare base64, but some clients send a
 * data URL anyway; its prefix is stripped and its media type trusted.
 */
export function imagePartFromBase64(entry: string): ImagePart {
  const match = DATA_URL.exec(entry);
  const data = match ? entry.slice(match[0].length) : entry;
  const mediaType = match?.[1] ?? detectImageMediaType(data);
  return { kind: "image", source: { type: "base64", mediaType, data } };
}
