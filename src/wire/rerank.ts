/**
 * The rerank codec registry: `/v1/rerank` (Cohere v1, Jina and compatible servers) and Cohere `/v2/rerank`.
 * Both answer errors in Cohere's envelope, `{"message": …}`, with the gateway's error kind beside it as
 * `type` (spec-fixed bodies such as the 401's `{"detail": …}` win, as everywhere).
 */
import type { GatewayError, RerankFormat } from "../model/mod.ts";
import type { EncodedError } from "./codec.ts";
import type { RerankCodec, RerankCodecParts } from "./rerank_codec.ts";
import { rerankV1Parts } from "./rerank_v1/mod.ts";
import { rerankV2Parts } from "./rerank_v2/mod.ts";
import { modelNameProblem } from "./shared/limits.ts";
import { invalidAt } from "./shared/zod_issues.ts";

export type { EncodedRerankRequest, RerankCall, RerankCodec, RerankEncodeContext } from "./rerank_codec.ts";
export { MAX_RERANK_DOCUMENTS } from "./shared/rerank_common.ts";

/** A GatewayError in the rerank envelope: Cohere's top-level `message`, the error kind as `type`. */
export function encodeRerankError(error: GatewayError): EncodedError {
  if (error.fixedBody !== undefined) return { status: error.status, body: error.fixedBody };
  return { status: error.status, body: { message: error.message, type: error.kind } };
}

/** A codec whose requests are held to the shared model-name limit, like every other surface's. */
function complete(parts: RerankCodecParts): RerankCodec {
  return {
    ...parts,
    decodeRequest: (body) => {
      const request = parts.decodeRequest(body);
      const problem = modelNameProblem(request.model);
      if (problem !== undefined) throw invalidAt(["model"], problem);
      return request;
    },
    encodeError: encodeRerankError,
  };
}

const CODECS: Readonly<Record<RerankFormat, RerankCodec>> = {
  v1: complete(rerankV1Parts),
  v2: complete(rerankV2Parts),
};

/** The rerank codec of a format. */
export function rerankCodecFor(format: RerankFormat): RerankCodec {
  return CODECS[format];
}

/**
 * The format an upstream base URL speaks: Cohere's v2 API (a base URL ending in `/v2`) takes v2 bodies;
 * every other compatible server (Jina, Cohere v1, vLLM, Infinity) the v1 shape at `<base>/rerank`.
 */
export function rerankFormatOfBase(baseUrl: string): RerankFormat {
  return /\/v2\/*$/.test(baseUrl) ? "v2" : "v1";
}
