/**
 * A request body as the gateway's HTTP clients send it: JSON text, bytes, or bytes in parts (a big body
 * encoded across turns of the event loop, `src/gateway/sliced_json.ts`), written in order and never joined.
 */
export type RequestBody = string | Uint8Array<ArrayBuffer> | readonly Uint8Array<ArrayBuffer>[];

/** The body as `fetch` takes it: parts as one Blob. */
export function fetchBody(body: RequestBody): string | Uint8Array<ArrayBuffer> | Blob {
  return typeof body === "string" || body instanceof Uint8Array ? body : new Blob([...body]);
}

/** The byte length of a body in parts. */
export function partsLength(parts: readonly Uint8Array[]): number {
  let length = 0;
  for (const part of parts) length += part.length;
  return length;
}
