/** The media type sent for a URL image whose extension says nothing. */
export const DEFAULT_IMAGE_MEDIA_TYPE = "image/jpeg";

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  pdf: "application/pdf",
};

/** Guesses a media type from a URL's file extension (query and fragment ignored). */
export function guessMediaType(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const dot = path.lastIndexOf(".");
  if (dot === -1 || dot < path.lastIndexOf("/")) return DEFAULT_IMAGE_MEDIA_TYPE;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? DEFAULT_IMAGE_MEDIA_TYPE;
}

/** Splits a base64 `data:` URL into media type and data; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)?((?:;[^;,]+)*);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? DEFAULT_IMAGE_MEDIA_TYPE, data: match[3] };
}
