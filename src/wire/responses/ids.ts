import { stableHash } from "../shared/mod.ts";

/** The item kinds whose ids this codec mints, with the prefixes the Responses API uses. */
export type ItemPrefix = "msg" | "fc" | "rs";

/** A Responses-style response id (`resp_…`) for any neutral id, stable for the same input. */
export function responseIdFor(id: string): string {
  if (id.startsWith("resp_")) return id;
  const safe = id.replace(/[^A-Za-z0-9_-]/g, "");
  return safe === "" ? `resp_${stableHash(id)}` : `resp_${safe}`;
}

/**
 * A deterministic output item id: derived from the response id and the item's output index, so the
 * stream and non-stream encoders agree and no randomness is needed.
 */
export function itemIdFor(prefix: ItemPrefix, responseId: string, outputIndex: number): string {
  return `${prefix}_${stableHash(responseId)}${outputIndex.toString().padStart(4, "0")}`;
}
