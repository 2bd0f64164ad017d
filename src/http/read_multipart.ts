import { GatewayError, type MultipartBody } from "../model/mod.ts";
import { nextTurn } from "../next_turn.ts";
import { multipartBoundary, MultipartReader } from "../wire/shared/multipart_parse.ts";
import { type BigBodies, readBodyBytes } from "./read_body.ts";

/**
 * Reads a multipart/form-data upload with a size cap: over it, a 413 in the client's error format before
 * the rest is read. The bytes are read as a JSON body's are (with `big`, an upload over BIG_BODY_BYTES waits
 * for the body lane and arrives a slice per turn), and the form is read a stretch per turn
 * (`MultipartReader`): the runtime's `formData()` held the serving loop about 250 ms for one 30 MiB upload.
 * Text fields keep their last value; files are views into the body (the cap bounds them) and never logged.
 */
export async function readMultipartBody(
  request: Request,
  limit: number,
  big?: BigBodies,
): Promise<MultipartBody> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new GatewayError(
      400,
      "invalid_request",
      `Expected a multipart/form-data body (got ${type === "" ? "no content type" : JSON.stringify(type)})`,
    );
  }
  const boundary = multipartBoundary(type);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBodyBytes(request, limit, big);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 413) throw tooLarge(limit);
    throw error;
  }
  if (bytes.length === 0) {
    throw new GatewayError(400, "invalid_request", "Request body is empty; expected a form");
  }
  const reader = new MultipartReader(bytes, boundary);
  for (let form = reader.step();; form = reader.step()) {
    if (form !== null) return form;
    await nextTurn();
  }
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(
    413,
    "payload_too_large",
    `The upload is larger than ${Math.round(limit / 1024 / 1024)} MiB, the most this endpoint takes`,
  );
}
