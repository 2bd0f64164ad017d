/** The Cohere `/v2/rerank` wire format: client side and upstream side. */
import type { RerankCodecParts } from "../rerank_codec.ts";
import { decodeRerankAnswer } from "../shared/rerank_common.ts";
import { decodeRerankV2Request, encodeRerankV2Request } from "./request.ts";
import { encodeRerankV2Response } from "./response.ts";

/** The `/v2/rerank` codec, without its error envelope (see src/wire/rerank.ts). */
export const rerankV2Parts: RerankCodecParts = {
  format: "v2",
  decodeRequest: decodeRerankV2Request,
  encodeRequest: encodeRerankV2Request,
  decodeResponse: decodeRerankAnswer,
  encodeResponse: encodeRerankV2Response,
};
