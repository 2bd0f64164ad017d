/** OpenAI's images API (`/v1/images/generations`, `/v1/images/edits`), client and upstream side. */
export {
  decodeImageEdit,
  decodeImageGeneration,
  type EncodedImageRequest,
  encodeOpenAiImageRequest,
  MAX_IMAGES_PER_REQUEST,
} from "./request.ts";
export { decodeOpenAiImageResponse, encodeOpenAiImageResponse } from "./response.ts";
