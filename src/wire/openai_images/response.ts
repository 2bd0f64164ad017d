/** OpenAI images answers: upstream body → neutral, neutral → client body. */
import type { GeneratedImage, ImageResponseFormat, NeutralImageResponse, Usage } from "../../model/mod.ts";
import { GatewayError } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

/** Reads an OpenAI images answer; throws GatewayError(502) when it holds no image. */
export function decodeOpenAiImageResponse(body: unknown): NeutralImageResponse {
  if (!isRecord(body) || !Array.isArray(body.data)) {
    throw new GatewayError(502, "upstream", "The upstream's images answer has no data array");
  }
  const images: GeneratedImage[] = [];
  for (const item of body.data) {
    if (!isRecord(item)) continue;
    const image: { -readonly [K in keyof GeneratedImage]: GeneratedImage[K] } = {};
    if (typeof item.b64_json === "string" && item.b64_json !== "") image.b64 = item.b64_json;
    if (typeof item.url === "string" && item.url !== "") image.url = item.url;
    if (typeof item.revised_prompt === "string") image.revisedPrompt = item.revised_prompt;
    if (image.b64 !== undefined || image.url !== undefined) images.push(image);
  }
  if (images.length === 0) {
    throw new GatewayError(502, "upstream", "The upstream's images answer holds no image");
  }
  const response: { -readonly [K in keyof NeutralImageResponse]: NeutralImageResponse[K] } = { images };
  if (typeof body.created === "number") response.created = body.created;
  const usage = decodeImageUsage(body.usage);
  if (usage !== undefined) response.usage = usage;
  return response;
}

/** gpt-image-1's `usage` (input_tokens, output_tokens), when present. */
function decodeImageUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = typeof value.input_tokens === "number" ? value.input_tokens : 0;
  const output = typeof value.output_tokens === "number" ? value.output_tokens : 0;
  if (input <= 0 && output <= 0) return undefined;
  return { inputTotal: input, cacheRead: 0, cacheWrite: 0, output, reasoning: 0 };
}

/**
 * Neutral → the client's answer in the format it asked for. An image the upstream gave as base64 is sent
 * as a `data:` URL to a client that asked for URLs (the gateway stores no images to link to); one given
 * only as a URL stays a URL.
 */
export function encodeOpenAiImageResponse(
  response: NeutralImageResponse,
  format: ImageResponseFormat | undefined,
  now: number,
): Record<string, unknown> {
  const data = response.images.map((image) => {
    const item: Record<string, unknown> = {};
    if (format === "url" && image.url === undefined && image.b64 !== undefined) {
      item.url = `data:${image.mediaType ?? "image/png"};base64,${image.b64}`;
    } else if (format === "url" || image.b64 === undefined) item.url = image.url;
    else item.b64_json = image.b64;
    if (image.revisedPrompt !== undefined) item.revised_prompt = image.revisedPrompt;
    return item;
  });
  const body: Record<string, unknown> = { created: response.created ?? now, data };
  if (response.usage !== undefined) {
    body.usage = {
      input_tokens: response.usage.inputTotal,
      output_tokens: response.usage.output,
      total_tokens: response.usage.inputTotal + response.usage.output,
    };
  }
  return body;
}
