import type { MultipartBody } from "../../model/mod.ts";

const ENCODER = new TextEncoder();

/** A multipart/form-data body as bytes, and the content type naming its boundary. */
export interface EncodedMultipart {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly contentType: string;
}

/**
 * Writes a multipart/form-data body (RFC 7578). The boundary is passed in (the caller's id source) so this
 * stays pure; names and filenames have quotes and line breaks escaped as browsers do.
 */
export function encodeMultipart(body: MultipartBody, boundary: string): EncodedMultipart {
  const chunks: Uint8Array[] = [];
  for (const [name, value] of Object.entries(body.fields)) {
    chunks.push(
      ENCODER.encode(`--${boundary}\r\ncontent-disposition: form-data; name="${escape(name)}"\r\n\r\n`),
    );
    chunks.push(ENCODER.encode(value), ENCODER.encode("\r\n"));
  }
  for (const file of body.files) {
    chunks.push(ENCODER.encode(
      `--${boundary}\r\ncontent-disposition: form-data; name="${escape(file.field)}"; filename="${
        escape(file.filename)
      }"\r\ncontent-type: ${file.contentType.replace(/[\r\n]/g, "") || "application/octet-stream"}\r\n\r\n`,
    ));
    chunks.push(file.data, ENCODER.encode("\r\n"));
  }
  chunks.push(ENCODER.encode(`--${boundary}--\r\n`));
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, contentType: `multipart/form-data; boundary=${boundary}` };
}

function escape(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
