/** Chat-completions content (a string or typed parts) → neutral text and image parts. */
import type { CacheControl, ImagePart, ImageSource, TextPart } from "../../model/mod.ts";
import { invalidAt, isRecord, parseAt, quoteValue } from "../shared/mod.ts";
import { unknownFields, withChatExtra } from "./extra_fields.ts";
import type { Mutable } from "./mutable.ts";
import { imagePartSchema, textPartSchema } from "./schema.ts";
import { isPlainImagePart, isPlainTextPart } from "./schema_guards.ts";
import type { z } from "zod";

// The fields each part maps; the rest of each part travels in its `extra`.
const KNOWN_TEXT_PART = new Set(["type", "text", "cache_control"]);
const KNOWN_REFUSAL_PART = new Set(["type", "refusal", "cache_control"]);
const KNOWN_IMAGE_PART = new Set(["type", "image_url", "cache_control"]);
const KNOWN_IMAGE_URL = new Set(["url", "detail"]);

/** A message's content as the schema lets it through. */
export type RawContent = string | readonly { readonly type: string; readonly [key: string]: unknown }[];

/** Where a content list appears; decides which part types it may hold. */
export type ContentRole = "system" | "user" | "assistant" | "tool";

function partPath(message: number, part: number): PropertyKey[] {
  return ["messages", message, "content", part];
}

/** Decodes message `message`'s content; image parts are refused where `role` may not hold them. */
export function decodeContent(
  content: RawContent,
  message: number,
  role: ContentRole,
): (TextPart | ImagePart)[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  return content.map((part, i) => decodeContentPart(part, message, i, role));
}

function decodeContentPart(
  part: { readonly type: string; readonly [key: string]: unknown },
  message: number,
  index: number,
  role: ContentRole,
): TextPart | ImagePart {
  switch (part.type) {
    case "text": {
      const p = isPlainTextPart(part) ? part : parseAt(textPartSchema, part, partPath(message, index));
      return textPart(p.text, p, KNOWN_TEXT_PART);
    }
    case "refusal":
      if (role !== "assistant" || typeof part.refusal !== "string") break;
      return textPart(part.refusal, part, KNOWN_REFUSAL_PART);
    case "image_url":
      if (role === "system" || role === "assistant") {
        throw invalidAt(
          [...partPath(message, index), "type"],
          `image parts are not allowed in ${role} messages`,
        );
      }
      return decodeImage(
        isPlainImagePart(part) ? part : parseAt(imagePartSchema, part, partPath(message, index)),
      );
    case "input_audio":
    case "file":
      throw invalidAt(
        [...partPath(message, index), "type"],
        `content part type ${quoteValue(part.type)} is not supported by this gateway`,
      );
  }
  throw invalidAt(
    [...partPath(message, index), "type"],
    `unknown content part type ${quoteValue(part.type)}`,
  );
}

function textPart(
  text: string,
  raw: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
): TextPart {
  let fields = unknownFields(raw, known);
  const cacheControl = decodeCacheControl(raw.cache_control);
  if (raw.cache_control !== undefined && !cacheControl) (fields ??= {}).cache_control = raw.cache_control;
  const part: Mutable<TextPart> = { kind: "text", text };
  if (cacheControl) part.cacheControl = cacheControl;
  return withChatExtra(part, fields);
}

function decodeImage(p: z.infer<typeof imagePartSchema>): ImagePart {
  const image = typeof p.image_url === "string" ? { url: p.image_url } : p.image_url;
  let fields = unknownFields(p, KNOWN_IMAGE_PART);
  const inner = unknownFields(image, KNOWN_IMAGE_URL);
  if (inner) (fields ??= {}).image_url = inner;
  const cacheControl = decodeCacheControl(p.cache_control);
  if (p.cache_control !== undefined && !cacheControl) (fields ??= {}).cache_control = p.cache_control;
  const part: Mutable<ImagePart> = { kind: "image", source: imageSource(image.url) };
  if (typeof image.detail === "string") part.detail = image.detail;
  if (cacheControl) part.cacheControl = cacheControl;
  return withChatExtra(part, fields);
}

/** A `data:<type>;base64,<data>` URL becomes an inline image; anything else stays a URL. */
export function imageSource(url: string): ImageSource {
  if (url.startsWith("data:")) {
    const comma = url.indexOf(",");
    const header = comma === -1 ? "" : url.slice(5, comma);
    if (header.endsWith(";base64")) {
      const mediaType = header.split(";")[0] || "application/octet-stream";
      return { type: "base64", mediaType, data: url.slice(comma + 1) };
    }
  }
  return { type: "url", url };
}

/** An `ephemeral` cache hint; anything else is no hint (the caller keeps it verbatim in extra). */
export function decodeCacheControl(value: unknown): CacheControl | undefined {
  if (!isRecord(value) || value.type !== "ephemeral") return undefined;
  return typeof value.ttl === "string" ? { type: "ephemeral", ttl: value.ttl } : { type: "ephemeral" };
}
