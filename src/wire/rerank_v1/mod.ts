/** The `/v1/rerank` wire format (Cohere v1, Jina, vLLM, Infinity): client side and upstream side. */
import type { RerankCodecParts } from "../rerank_codec.ts";
import { decodeRerankAnswer } from "../shared/rerank_common.ts";
import { decodeRerankV1Request, encodeRerankV1Request } from "./request.ts";
import { encodeRerankV1Response } from "./response.ts";

/** The `/v1/rerank` codec, without its error envelope (see src/wire/rerank.ts). */
export const rerankV1Parts: RerankCodecParts = {
  format: "v1",
  decodeRequest: decodeRerankV1Request,
  encodeRequest: encodeRerankV1Request,
  decodeResponse: decodeRerankAnswer,
  encodeResponse: encodeRerankV1Response,
};
