import { type Extra, type ImagePart, splitExtra, type TextPart } from "../../model/mod.ts";
import { invalidAt, isRecord, parseAt, quoteValue } from "../shared/mod.ts";
import { ImageContentSchema, RefusalContentSchema, TextContentSchema } from "./schema.ts";

const FORMAT = "responses";

const TEXT_PART_TYPES = new Set(["input_text", "output_text", "text", "summary_text"]);

/** Reads a data URL into base64 form; other URLs stay URLs. */
function imageFromUrl(url: string, detail: string | undefined, extra: Extra | undefined): ImagePart {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  const source = match
    ? { type: "base64" as const, mediaType: match[1], data: match[2] }
    : { type: "url" as const, url };
  return { kind: "image", source, ...(detail ? { detail } : {}), ...(extra ? { extra } : {}) };
}

function decodeImage(value: unknown, path: readonly PropertyKey[]): ImagePart {
  const part = parseAt(ImageContentSchema, value, path);
  if (part.image_url) {
    return imageFromUrl(
      part.image_url,
      part.detail ?? undefined,
      splitExtra(part, new Set(["type", "image_url", "detail"]), "responses"),
    );
  }
  if (part.file_id) {
    throw invalidAt([...path, "file_id"], "input images by file_id are not supported; send image_url");
  }
  throw invalidAt([...path, "image_url"], "is required");
}

function decodeText(value: unknown, path: readonly PropertyKey[]): TextPart {
  const part = parseAt(TextContentSchema, value, path);
  const extra = splitExtra(part, new Set(["type", "text"]), "responses");
  return { kind: "text", text: part.text, ...(extra ? { extra } : {}) };
}

/** One content part of a message or a function_call_output list. */
export function decodeContentPart(
  value: unknown,
  path: readonly PropertyKey[],
  allowRefusal: boolean,
): TextPart | ImagePart {
  const type = isRecord(value) ? value.type : undefined;
  if (typeof type === "string" && TEXT_PART_TYPES.has(type)) return decodeText(value, path);
  if (type === "input_image") return decodeImage(value, path);
  if (type === "refusal" && allowRefusal) {
    const part = parseAt(RefusalContentSchema, value, path);
    return { kind: "text", text: part.refusal, extra: { format: FORMAT, fields: { type: "refusal" } } };
  }
  if (type === "input_file" || type === "input_audio") {
    throw invalidAt([...path, "type"], `content part type ${quoteValue(type)} is not supported`);
  }
  throw invalidAt([...path, "type"], `unknown content part type ${quoteValue(type)}`);
}
