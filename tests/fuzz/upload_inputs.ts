/**
 * Hostile multipart uploads for the image-edit and audio endpoints: forms missing their file or model, empty
 * or oversized fields, hostile field values and filenames, a wrong or missing boundary, damaged and cut-off
 * bodies. Each must get a clear answer in OpenAI's error format (or a real answer), never a 500.
 */
import type { FuzzInput, Rng } from "./fuzzer.ts";
import { damageBytes, UNICODE_EDGES } from "./hostile_values.ts";
import { PREFIXES } from "./surfaces.ts";

const PATHS = ["/v1/images/edits", "/v1/audio/transcriptions", "/v1/audio/translations"];
const ENCODER = new TextEncoder();

interface Part {
  readonly name: string;
  readonly value: string | Uint8Array;
  readonly filename?: string;
  readonly type?: string;
}

/** A multipart body written by hand, so it can be wrong in ways a FormData never is. */
function writeForm(parts: readonly Part[], boundary: string): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.type === undefined ? "" : `\r\ncontent-type: ${part.type}`;
    chunks.push(
      ENCODER.encode(
        `--${boundary}\r\ncontent-disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`,
      ),
    );
    chunks.push(
      typeof part.value === "string" ? ENCODER.encode(part.value) : part.value,
      ENCODER.encode("\r\n"),
    );
  }
  chunks.push(ENCODER.encode(`--${boundary}--\r\n`));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function hostileText(rng: Rng): string {
  return rng.pick([
    "",
    "true",
    "-1",
    "1e309",
    "99999999999",
    "x".repeat(rng.size(1, 100_000)),
    rng.pick(UNICODE_EDGES),
    '"; name="model',
    "\r\n--boundary-x--\r\n",
  ]);
}

/** Builds input `index` of the upload campaign. */
export function uploadInput(rng: Rng): FuzzInput {
  const path = rng.pick(PATHS);
  const fileField = path === "/v1/images/edits" ? rng.pick(["image", "image[]"]) : "file";
  const boundary = "boundary-x";
  const parts: Part[] = [
    { name: "model", value: `${rng.pick(PREFIXES)}/ok` },
    { name: "prompt", value: "make it blue" },
    {
      name: fileField,
      value: new Uint8Array(rng.size(1, 4096)).fill(7),
      filename: "in.bin",
      type: "image/png",
    },
  ];
  let label = "valid";
  let contentType = `multipart/form-data; boundary=${boundary}`;
  switch (rng.int(9)) {
    case 0:
      label = "field dropped";
      parts.splice(rng.int(parts.length), 1);
      break;
    case 1:
      label = "hostile field value";
      parts.push({
        name: rng.pick(["n", "response_format", "stream", "size", "language", "temperature"]),
        value: hostileText(rng),
      });
      break;
    case 2:
      label = "hostile filename or type";
      parts.push({
        name: fileField,
        value: new Uint8Array(0),
        filename: hostileText(rng),
        type: hostileText(rng),
      });
      break;
    case 3:
      label = "boundary mismatch";
      contentType = rng.pick([
        "multipart/form-data",
        "multipart/form-data; boundary=other",
        "application/json",
        "text/plain",
      ]);
      break;
    case 4:
      label = "many parts";
      for (let i = rng.size(10, 500); i > 0; i--) parts.push({ name: `f${i}`, value: "v" });
      break;
    case 5: {
      label = "damaged bytes";
      return {
        label,
        path,
        body: damageBytes(rng, new TextDecoder().decode(writeForm(parts, boundary))),
        envelope: "openai",
        headers: { "content-type": contentType },
      };
    }
    case 6: {
      label = "cut off";
      const whole = writeForm(parts, boundary);
      return {
        label,
        path,
        body: whole.slice(0, rng.int(whole.length)),
        envelope: "openai",
        headers: { "content-type": contentType },
      };
    }
    case 7:
      label = "model not a string route";
      parts[0] = { name: "model", value: hostileText(rng) };
      break;
  }
  return {
    label,
    path,
    body: writeForm(parts, boundary),
    envelope: "openai",
    headers: { "content-type": contentType },
  };
}
