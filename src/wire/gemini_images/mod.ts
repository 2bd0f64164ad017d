/**
 * Image generation and editing through Gemini's `generateContent` with image output (the "-image" models):
 * the neutral image request as a user turn of text (and the images to edit), the answer's inline image
 * parts as generated images.
 */
import type {
  GatewayWarning,
  GeneratedImage,
  NeutralImageRequest,
  NeutralImageResponse,
  UploadedFile,
} from "../../model/mod.ts";
import { droppedField, GatewayError } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

/** Aspect ratios Gemini's `imageConfig.aspectRatio` takes. */
const ASPECT_RATIOS = ["1:1", "2:3", "3:2", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9"];

/** A generateContent body for an image request, and what it could not express. */
export interface EncodedGeminiImageRequest {
  readonly body: Record<string, unknown>;
  readonly warnings: readonly GatewayWarning[];
}

/**
 * Neutral → a generateContent body asking for image output. `base64` writes an image's bytes (the caller
 * may give a big image's base64 as a stand-in it writes later, src/gateway/stand_ins.ts).
 */
export function encodeGeminiImageRequest(
  request: NeutralImageRequest,
  base64: (image: UploadedFile) => string = (image) => image.data.toBase64(),
): EncodedGeminiImageRequest {
  const warnings: GatewayWarning[] = [];
  const parts: Record<string, unknown>[] = [{ text: request.prompt }];
  for (const image of request.images) {
    parts.push({ inlineData: { mimeType: image.contentType || "image/png", data: base64(image) } });
  }
  if (request.mask !== undefined) {
    warnings.push(droppedField("mask", "mask: Gemini edits from the prompt and takes no mask; dropped"));
  }
  const generationConfig: Record<string, unknown> = { responseModalities: ["TEXT", "IMAGE"] };
  if (request.size !== undefined) {
    const ratio = aspectRatio(request.size);
    if (ratio !== undefined) generationConfig.imageConfig = { aspectRatio: ratio };
    else {
      warnings.push(
        droppedField("size", `size: ${request.size} has no Gemini aspect ratio; the default is used`),
      );
    }
  }
  if (request.n > 1) {
    warnings.push(
      droppedField("n", `n: Gemini image models make one image per call; ${request.n} were asked for`),
    );
  }
  if (request.quality !== undefined) {
    warnings.push(droppedField("quality", "quality: Gemini image models have no quality setting; dropped"));
  }
  for (const key of Object.keys(request.extra ?? {})) {
    warnings.push(droppedField(key, `${key}: an OpenAI images field Gemini cannot express; dropped`));
  }
  return { body: { contents: [{ role: "user", parts }], generationConfig }, warnings };
}

/** `WxH` → Gemini's ratio of the same shape, when it has one. */
function aspectRatio(size: string): string | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (match === null) return undefined;
  const [w, h] = [Number(match[1]), Number(match[2])];
  if (w === 0 || h === 0) return undefined;
  const wanted = w / h;
  let best: string | undefined;
  let bestError = Infinity;
  for (const ratio of ASPECT_RATIOS) {
    const [a, b] = ratio.split(":").map(Number);
    const error = Math.abs(a / b - wanted) / wanted;
    if (error < bestError) [best, bestError] = [ratio, error];
  }
  // Within 15%: 1792x1024 is 16:9's nearest shape; a 5:1 strip is no shape Gemini makes.
  return bestError <= 0.15 ? best : undefined;
}

/** A generateContent answer's inline images (and usage); throws GatewayError(502) when it holds none. */
export function decodeGeminiImageResponse(body: unknown): NeutralImageResponse {
  if (!isRecord(body) || !Array.isArray(body.candidates)) {
    throw new GatewayError(502, "upstream", "The upstream's generateContent answer has no candidates");
  }
  const images: GeneratedImage[] = [];
  let text = "";
  for (const candidate of body.candidates) {
    const parts = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : undefined;
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (!isRecord(part)) continue;
      const inline = part.inlineData;
      if (isRecord(inline) && typeof inline.data === "string" && inline.data !== "") {
        const mediaType = typeof inline.mimeType === "string" ? inline.mimeType : "image/png";
        images.push({ b64: inline.data, mediaType });
      } else if (typeof part.text === "string") text += part.text;
    }
  }
  if (images.length === 0) {
    const said = text.trim() === "" ? "" : `; it said: ${text.trim().slice(0, 200)}`;
    throw new GatewayError(502, "upstream", `The upstream answered without an image${said}`);
  }
  const meta = body.usageMetadata;
  if (!isRecord(meta)) return { images };
  const input = typeof meta.promptTokenCount === "number" ? meta.promptTokenCount : 0;
  const output = typeof meta.candidatesTokenCount === "number" ? meta.candidatesTokenCount : 0;
  return { images, usage: { inputTotal: input, cacheRead: 0, cacheWrite: 0, output, reasoning: 0 } };
}
