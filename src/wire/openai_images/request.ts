/** OpenAI `/v1/images/generations` (JSON) and `/v1/images/edits` (multipart): client → neutral → upstream. */
import type { GatewayWarning, MultipartBody, NeutralImageRequest, UploadedFile } from "../../model/mod.ts";
import { invalidAt, isRecord, quoteValue } from "../shared/mod.ts";

/** Most images one request may ask for (OpenAI's own limit). */
export const MAX_IMAGES_PER_REQUEST = 10;
const MAPPED = new Set([
  "model",
  "prompt",
  "n",
  "size",
  "quality",
  "response_format",
  "image",
  "image[]",
  "mask",
]);

/** An upstream images call: a JSON body (generations) or a multipart one (edits). */
export type EncodedImageRequest =
  | {
    readonly kind: "json";
    readonly body: Record<string, unknown>;
    readonly warnings: readonly GatewayWarning[];
  }
  | {
    readonly kind: "multipart";
    readonly body: MultipartBody;
    readonly warnings: readonly GatewayWarning[];
  };

/** Decodes a generations body; throws GatewayError 400 naming the failing field. */
export function decodeImageGeneration(body: unknown): NeutralImageRequest {
  if (!isRecord(body)) throw invalidAt([], "must be a JSON object");
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw invalidAt([key], "must be a string, number or boolean");
    }
    fields[key] = value;
  }
  return decodeFields(fields, [], undefined);
}

/** Decodes an edits form: `image` (or `image[]`, repeated) files, an optional `mask`, text fields. */
export function decodeImageEdit(form: MultipartBody): NeutralImageRequest {
  const images = form.files.filter((f) => f.field === "image" || f.field === "image[]");
  if (images.length === 0) throw invalidAt(["image"], "is required: attach the image to edit as a file");
  for (const image of images) {
    if (image.data.length === 0) throw invalidAt(["image"], `file ${quoteValue(image.filename)} is empty`);
  }
  const mask = form.files.find((f) => f.field === "mask");
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(form.fields)) {
    // Multipart fields are text; numbers are read back where the API has them.
    fields[key] = key === "n" && /^\d+$/.test(value) ? Number(value) : value;
  }
  return decodeFields(fields, images, mask);
}

function decodeFields(
  fields: Record<string, string | number | boolean>,
  images: readonly UploadedFile[],
  mask: UploadedFile | undefined,
): NeutralImageRequest {
  const model = fields.model;
  if (model === undefined) throw invalidAt(["model"], "is required");
  if (typeof model !== "string" || model === "") throw invalidAt(["model"], "must be a non-empty string");
  const prompt = fields.prompt;
  if (prompt === undefined) throw invalidAt(["prompt"], "is required");
  if (typeof prompt !== "string" || prompt.trim() === "") {
    throw invalidAt(["prompt"], "must be non-empty text");
  }
  if (fields.stream === true || fields.stream === "true") {
    throw invalidAt(
      ["stream"],
      "streamed image generation is not supported; leave stream out for one answer",
    );
  }
  const n = fields.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_IMAGES_PER_REQUEST) {
    throw invalidAt(["n"], `must be an integer from 1 to ${MAX_IMAGES_PER_REQUEST} (got ${quoteValue(n)})`);
  }
  const format = fields.response_format;
  if (format !== undefined && format !== "url" && format !== "b64_json") {
    throw invalidAt(["response_format"], `must be "url" or "b64_json" (got ${quoteValue(format)})`);
  }
  const request: { -readonly [K in keyof NeutralImageRequest]: NeutralImageRequest[K] } = {
    model,
    prompt,
    n,
    images,
  };
  if (format !== undefined) request.responseFormat = format;
  if (mask !== undefined) request.mask = mask;
  for (const key of ["size", "quality"] as const) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== "string") throw invalidAt([key], "must be a string");
    request[key] = value;
  }
  const extra: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(fields)) if (!MAPPED.has(key)) extra[key] = value;
  if (Object.keys(extra).length > 0) request.extra = extra;
  return request;
}

/** Neutral → an OpenAI-compatible upstream call for `upstreamModel` (JSON, or multipart for edits). */
export function encodeOpenAiImageRequest(
  request: NeutralImageRequest,
  upstreamModel: string,
): EncodedImageRequest {
  const fields: Record<string, string | number | boolean> = { ...request.extra, model: upstreamModel };
  fields.prompt = request.prompt;
  if (request.n !== 1) fields.n = request.n;
  if (request.size !== undefined) fields.size = request.size;
  if (request.quality !== undefined) fields.quality = request.quality;
  // gpt-image models answer base64 only and reject the field; the gateway still answers the format asked.
  if (request.responseFormat !== undefined && !upstreamModel.startsWith("gpt-image")) {
    fields.response_format = request.responseFormat;
  }
  if (request.images.length === 0) return { kind: "json", body: fields, warnings: [] };
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) text[key] = String(value);
  const files = request.images.length === 1
    ? [{ ...request.images[0], field: "image" }]
    : request.images.map((image) => ({ ...image, field: "image[]" }));
  if (request.mask !== undefined) files.push({ ...request.mask, field: "mask" });
  return { kind: "multipart", body: { fields: text, files }, warnings: [] };
}
