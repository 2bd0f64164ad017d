import type { MultipartBody } from "../../model/mod.ts";

const ENCODER = new TextEncoder();

/** A multipart/form-data body as byte parts to write in order, and the content type naming its boundary. */
export interface EncodedMultipart {
  /** The body: the files are the client's own bytes, never copied (an upload may be 32 MiB). */
  readonly parts: readonly Uint8Array<ArrayBuffer>[];
  readonly contentType: string;
}

/**
 * Writes a multipart/form-data body (RFC 7578). The boundary is passed in (the caller's id source) so this
 * stays pure; names and filenames have quotes and line breaks escaped as browsers do.
 */
export function encodeMultipart(body: MultipartBody, boundary: string): EncodedMultipart {
  let text = "";
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (const [name, value] of Object.entries(body.fields)) {
    text += `--${boundary}\r\ncontent-disposition: form-data; name="${escape(name)}"\r\n\r\n${value}\r\n`;
  }
  for (const file of body.files) {
    text += `--${boundary}\r\ncontent-disposition: form-data; name="${escape(file.field)}"; filename="${
      escape(file.filename)
    }"\r\ncontent-type: ${file.contentType.replace(/[\r\n]/g, "") || "application/octet-stream"}\r\n\r\n`;
    parts.push(ENCODER.encode(text), file.data);
    text = "\r\n";
  }
  parts.push(ENCODER.encode(`${text}--${boundary}--\r\n`));
  return { parts, contentType: `multipart/form-data; boundary=${boundary}` };
}

function escape(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
