import { GatewayError } from "../model/mod.ts";

/** Largest request body accepted (base64 images make big bodies legitimate; abuse stops here). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Reads a JSON request body with a size cap; errors are 400/413 GatewayErrors with clear messages. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) throw new GatewayError(400, "invalid_request", "Request body is empty; expected JSON");
  // With a declared length the whole body can be read at once (the common, fast case); without one,
  // it is read chunk by chunk so an endless body is cut off at the limit.
  const bytes = declared > 0
    ? new Uint8Array(await request.arrayBuffer())
    : await readCapped(request.body, limit);
  if (bytes.length > limit) throw tooLarge(limit);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    throw new GatewayError(400, "invalid_request", "Request body is empty; expected JSON");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GatewayError(
      400,
      "invalid_request",
      `Request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(
    413,
    "payload_too_large",
    `Request body is larger than ${Math.round(limit / 1024 / 1024)} MiB`,
  );
}
