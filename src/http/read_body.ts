import { GatewayError } from "../model/mod.ts";
import { nextTurn } from "../accounting/mod.ts";
import { checkJsonShape } from "../wire/mod.ts";

/** Largest request body accepted (base64 images make big bodies legitimate; abuse stops here). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Bodies with more values or characters than these yield to the event loop before they are validated. */
const PACE_AFTER_VALUES = 2_000;
const PACE_AFTER_CHARS = 1024 * 1024;

/** Decoding without `stream: true` keeps no state between calls, so one decoder serves every request. */
const UTF8 = new TextDecoder();

/**
 * Reads a JSON request body with a size cap, a nesting cap (MAX_JSON_DEPTH: deeper bodies overflow
 * the stack of whatever walks or re-serialises them later) and a cap on its number of values
 * (MAX_JSON_VALUES: validation time grows with it, and it runs in one go on the event loop); errors are 400/413 GatewayErrors with clear
 * messages, and a client that goes away mid-body is a 499 client_closed (its input was never wrong, only
 * unfinished).
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const text = await readText(request, declared, limit);
  if (text.trim() === "") throw emptyBody();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    // A body cut short by a client that left reads as broken JSON; that is not the client's bad input.
    if (request.signal.aborted) throw clientClosed(error);
    throw new GatewayError(
      400,
      "invalid_request",
      `Request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  const values = checkJsonShape(body);
  // Validating a big body runs in one go (tens of ms at the value cap); a turn of the event loop first
  // lets requests that arrived meanwhile (health checks included) be served between two such bodies.
  if (values > PACE_AFTER_VALUES || text.length > PACE_AFTER_CHARS) await nextTurn();
  return body;
}

/** The body as text; a failed read is the client's going away, not bad input. */
async function readText(request: Request, declared: number, limit: number): Promise<string> {
  try {
    // With a declared length the whole body can be read at once (the common, fast case); without one,
    // it is read chunk by chunk so an endless body is cut off at the limit.
    return declared > 0 ? await readDeclared(request, limit) : await readUndeclared(request, limit);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw clientClosed(error);
  }
}

/**
 * A body of declared length, read and decoded natively in one go (a missing body reads as "", which
 * the caller refuses as empty). The HTTP server holds a body to its declared length, already checked;
 * the length check here only guards a hand-built Request whose header understates its body (a string
 * longer than the limit certainly has more bytes than it).
 */
async function readDeclared(request: Request, limit: number): Promise<string> {
  const text = await request.text();
  if (text.length > limit) throw tooLarge(limit);
  return text;
}

async function readUndeclared(request: Request, limit: number): Promise<string> {
  if (!request.body) throw emptyBody();
  const reader = request.body.getReader();
  // A small body usually comes in one chunk: the list of chunks is only started for a second one.
  let first: Uint8Array | undefined;
  let more: Uint8Array[] | undefined;
  let size = 0;
  while (true) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    if (first === undefined) first = next.value;
    else (more ??= []).push(next.value);
  }
  if (first === undefined) return "";
  if (more === undefined) return UTF8.decode(first);
  const bytes = new Uint8Array(size);
  bytes.set(first);
  let offset = first.length;
  for (const chunk of more) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return UTF8.decode(bytes);
}

function clientClosed(cause: unknown): GatewayError {
  const message = "The client closed the connection while sending the request body";
  return new GatewayError(499, "client_closed", message, { cause });
}

function emptyBody(): GatewayError {
  return new GatewayError(400, "invalid_request", "Request body is empty; expected JSON");
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(
    413,
    "payload_too_large",
    `Request body is larger than ${Math.round(limit / 1024 / 1024)} MiB`,
  );
}
