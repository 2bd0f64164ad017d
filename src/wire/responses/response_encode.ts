import type { NeutralResponse } from "../../model/mod.ts";
import { extraFieldsFor } from "../../model/mod.ts";
import type { EncodeContext } from "../codec.ts";
import { wireStatusFor } from "./finish.ts";
import { responseIdFor } from "./ids.ts";
import { outputItemsFor, responseObject, type WireObject } from "./response_object.ts";
import { usageToWire } from "./usage.ts";

/** The error a failed response object carries when the upstream ended with an error finish. */
export const FAILED_ERROR = { code: "server_error", message: "The upstream model ended with an error" };

/** Neutral → client response object, with deterministic item ids derived from the response id. */
export function encodeResponse(response: NeutralResponse, ctx: EncodeContext): WireObject {
  const id = responseIdFor(response.id || (ctx.answerId ? `gw_${ctx.answerId}` : ""));
  const { status, incompleteDetails } = wireStatusFor(response.finish);
  return responseObject({
    id,
    createdAt: response.created ?? ctx.now,
    // The client sees the model id it asked for (prefix/model or a combo), never the upstream's name.
    model: ctx.requestModel,
    status,
    output: outputItemsFor(response.parts, id),
    usage: usageToWire(response.usage),
    incompleteDetails,
    error: status === "failed" ? FAILED_ERROR : null,
  }, extraFieldsFor(response.extra, "responses"));
}
