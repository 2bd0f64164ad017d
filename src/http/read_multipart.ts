import { GatewayError, type MultipartBody, type UploadedFile } from "../model/mod.ts";

/**
 * Reads a multipart/form-data upload with a size cap: over it, a 413 in the client's error format before
 * the rest is read. Text fields keep their last value; files are read into memory (the cap bounds them)
 * and never logged.
 */
export async function readMultipartBody(request: Request, limit: number): Promise<MultipartBody> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new GatewayError(
      400,
      "invalid_request",
      `Expected a multipart/form-data body (got ${type === "" ? "no content type" : JSON.stringify(type)})`,
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const bytes = await readBytes(request, limit);
  let form: FormData;
  try {
    form = await new Request("http://upload.invalid/", {
      method: "POST",
      headers: { "content-type": type },
      body: bytes,
    }).formData();
  } catch (error) {
    throw new GatewayError(
      400,
      "invalid_request",
      `The multipart body cannot be read: ${(error as Error).message}`,
    );
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") fields[field] = value;
    else {
      files.push({
        field,
        filename: value.name,
        contentType: value.type,
        data: new Uint8Array(await value.arrayBuffer()),
      });
    }
  }
  return { fields, files };
}

async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) throw new GatewayError(400, "invalid_request", "Request body is empty; expected a form");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
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
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(
      499,
      "client_closed",
      "The client closed the connection while sending the upload",
      {
        cause: error,
      },
    );
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
    `The upload is larger than ${Math.round(limit / 1024 / 1024)} MiB, the most this endpoint takes`,
  );
}
