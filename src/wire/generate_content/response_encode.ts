import type { NeutralResponse } from "../../model/mod.ts";
import { extraFieldsFor } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { encodeFinish } from "./finish.ts";
import { mergeUnder } from "./merge.ts";
import { encodePart, type WirePart } from "./parts_encode.ts";
import { encodeUsage } from "./usage.ts";
import { Warnings } from "./warnings.ts";

const FORMAT = "generate_content";

/** Encodes a neutral answer as a GenerateContentResponse for a Gemini client. */
export function encodeResponse(response: NeutralResponse, ctx: EncodeContext): Record<string, unknown> {
  const warnings = new Warnings();
  const parts: WirePart[] = [];
  for (const part of response.parts) {
    const wire = encodePart(part, "client", warnings);
    if (wire) parts.push(wire);
  }
  const { candidates: ownCandidates, ...own } = extraFieldsFor(response.extra, FORMAT);
  const ownCandidate = Array.isArray(ownCandidates) && isRecord(ownCandidates[0]) ? ownCandidates[0] : {};
  const candidate = mergeUnder(
    { content: { role: "model", parts }, finishReason: encodeFinish(response.finish), index: 0 },
    ownCandidate,
  );
  const body: Record<string, unknown> = {
    candidates: [candidate],
    usageMetadata: encodeUsage(response.usage),
    modelVersion: ctx.requestModel,
  };
  if (response.id !== "") body.responseId = response.id;
  return mergeUnder(body, own);
}
