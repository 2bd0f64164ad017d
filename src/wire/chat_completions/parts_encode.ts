/** Neutral text and image parts → chat-completions content, and the per-call state they share. */
import type { CacheControl, Extra, GatewayWarning, ImagePart, TextPart } from "../../model/mod.ts";
import { warning } from "../../model/mod.ts";
import { mergeExtraFields } from "./extra_fields.ts";

const FORMAT = "chat_completions";

type Json = Record<string, unknown>;

/** Per-call encoding state: whether cache hints may be written, and the warnings collected. */
export interface Encoding {
  readonly sameFormat: boolean;
  readonly upstreamModel: string;
  readonly warnings: GatewayWarning[];
}

/**
 * A single plain text part becomes a string. Several parts stay an array, except that text-only
 * assistant and tool content from another format is joined: many upstreams only take strings there.
 */
export function encodeContent(
  parts: readonly (TextPart | ImagePart)[],
  enc: Encoding,
  joinText: boolean,
): unknown {
  const encoded = parts.map((part) => encodeContentPart(part, enc));
  if (encoded.length === 0) return "";
  let plain = true;
  for (const p of encoded) plain &&= isBareText(p);
  if (plain && encoded.length === 1) return encoded[0].text;
  if (plain && joinText && !enc.sameFormat) return encoded.map((p) => p.text).join("\n");
  return encoded;
}

/** A `{type:"text", text}` part and nothing else (no cache hint, no extra fields) that a string can replace. */
function isBareText(part: Json): boolean {
  if (part.type !== "text") return false;
  // Counted with for…in: `Object.keys(part).length` would allocate an array per part.
  let keys = 0;
  for (const key in part) if (Object.hasOwn(part, key)) keys++;
  return keys === 2;
}

function encodeContentPart(part: TextPart | ImagePart, enc: Encoding): Json {
  switch (part.kind) {
    case "text": {
      const out: Json = { type: "text", text: part.text };
      cacheHint(out, part.cacheControl, "text part", enc);
      return withExtra(out, part.extra);
    }
    case "image": {
      const url = part.source.type === "url"
        ? part.source.url
        : `data:${part.source.mediaType};base64,${part.source.data}`;
      const image: Json = { url };
      if (part.detail !== undefined) image.detail = part.detail;
      const out: Json = { type: "image_url", image_url: image };
      cacheHint(out, part.cacheControl, "image part", enc);
      return withExtra(out, part.extra);
    }
  }
}

/**
 * Writes `cache_control` back only for a same-format request (the client's upstream evidently takes
 * it); for any other source it is reported, since OpenAI-style upstreams reject unknown keys.
 */
export function cacheHint(
  target: Json,
  cacheControl: CacheControl | undefined,
  what: string,
  enc: Encoding,
): boolean {
  if (!cacheControl) return false;
  if (enc.sameFormat) {
    target.cache_control = { ...cacheControl };
    return true;
  }
  enc.warnings.push(
    warning(
      "dropped_field:cache_control",
      `cacheControl on ${what} cannot be expressed in chat completions; dropped`,
    ),
  );
  return false;
}

/** Merges back the fields a same-format request carried; other formats' extra is dropped. */
export function withExtra(target: Json, extra: Extra | undefined): Json {
  return extra && extra.format === FORMAT ? mergeExtraFields(target, extra.fields) : target;
}
