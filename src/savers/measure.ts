import type { NeutralRequest } from "../model/mod.ts";

/** UTF-8 byte length of a string, counted without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The size savers are measured on: UTF-8 bytes of the JSON of `{system, messages}`. Every saver only
 * touches those two fields, and tools/params would only add the same constant before and after.
 */
export function promptBytes(request: NeutralRequest): number {
  return utf8Length(JSON.stringify({ system: request.system, messages: request.messages }));
}
