import type { NeutralRequest } from "../model/mod.ts";
import { utf8Length } from "../bytes.ts";

/**
 * The size savers are measured on: UTF-8 bytes of the JSON of `{system, messages}`. Every saver only
 * touches those two fields, and tools/params would only add the same constant before and after.
 */
export function promptBytes(request: NeutralRequest): number {
  return utf8Length(JSON.stringify({ system: request.system, messages: request.messages }));
}
