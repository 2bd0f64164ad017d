/**
 * The multipart reader against the runtime's own form parser over seeded random forms (content full of CR,
 * LF, dashes and pieces of the boundary, read in steps of a few bytes), and its clear 400s for forms it
 * cannot read.
 */
import { mulberry32 } from "../../fuzz/fuzzer.ts";
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError, type MultipartBody } from "../../../src/model/mod.ts";
import { MAX_PARTS, multipartBoundary, MultipartReader } from "../../../src/wire/shared/multipart_parse.ts";
import { encodeMultipart } from "../../../src/wire/shared/multipart.ts";
import { concatBytes } from "../../../src/bytes.ts";

const ENCODER = new TextEncoder();
const BCHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=?";

function read(body: Uint8Array<ArrayBuffer>, boundary: string, stepBytes?: number): MultipartBody {
  const reader = new MultipartReader(body, boundary, stepBytes);
  for (let steps = 0; steps < 1_000_000; steps++) {
    const form = reader.step();
    if (form !== null) return form;
  }
  throw new Error("the reader never finished");
}

function join(chunks: readonly (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  return concatBytes(
    chunks.map((chunk) => typeof chunk === "string" ? ENCODER.encode(chunk) : chunk),
  ) as Uint8Array<
    ArrayBuffer
  >;
}

interface RandomPart {
  readonly name: string;
  readonly value: string | Uint8Array;
  readonly filename?: string;
  readonly type?: string;
}

/** Bytes that look like the boundary's surroundings as often as like anything else. */
function trickyBytes(random: () => number, boundary: string, length: number): Uint8Array {
  const near = [
    "\r",
    "\n",
    "\r\n",
    "-",
    "--",
    "\r\n-",
    "\r\n--",
    `--${boundary.slice(0, -1)}`,
    `\r\n--${boundary.slice(0, -1)}`,
    `\n--${boundary}`,
    `\r--${boundary}`,
    boundary,
  ].map((text) => ENCODER.encode(text));
  // A sender picks a boundary its content does not hold (RFC 2046): content holding the whole delimiter
  // is made again (the test below covers a delimiter followed by other bytes).
  const delimiter = `\r\n--${boundary}`;
  while (true) {
    const out: number[] = [];
    while (out.length < length) {
      if (random() < 0.3) out.push(...near[Math.floor(random() * near.length)]);
      else out.push(Math.floor(random() * 256));
    }
    const bytes = new Uint8Array(out.slice(0, length));
    if (!new TextDecoder("latin1").decode(bytes).includes(delimiter)) return bytes;
  }
}

function randomText(random: () => number): string {
  const pieces = ["a", "é", "😀", "\r\n", '"', "\\", " ", "--", "%22", "\u2028", "z"];
  let text = "";
  const length = Math.floor(random() * 20);
  for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

Deno.test("MultipartReader reads random forms as the runtime's form parser does, whatever the step size", async () => {
  const random = mulberry32(7_578);
  for (let round = 0; round < 300; round++) {
    let boundary = "";
    const boundaryLength = 1 + Math.floor(random() * (random() < 0.2 ? 3 : 60));
    for (let i = 0; i < boundaryLength; i++) boundary += BCHARS[Math.floor(random() * BCHARS.length)];
    const parts: RandomPart[] = [];
    const count = Math.floor(random() * 6);
    for (let i = 0; i < count; i++) {
      const name = `f${i}${random() < 0.3 ? "é" : ""}`;
      if (random() < 0.5) parts.push({ name, value: randomText(random) });
      else {
        parts.push({
          name,
          value: trickyBytes(random, boundary, Math.floor(random() * 400)),
          filename: `file ${i}.${random() < 0.5 ? "png" : "bin"}`,
          ...(random() < 0.7 ? { type: random() < 0.5 ? "image/png" : "audio/mpeg" } : {}),
        });
      }
    }
    const chunks: (string | Uint8Array)[] = [];
    if (random() < 0.3) chunks.push("a preamble\r\n");
    for (const part of parts) {
      const file = part.filename === undefined ? "" : `; filename="${part.filename}"`;
      const type = part.type === undefined ? "" : `\r\nContent-Type: ${part.type}`;
      const padding = random() < 0.2 ? " \t" : "";
      chunks.push(
        `--${boundary}${padding}\r\nContent-Disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`,
      );
      chunks.push(part.value, "\r\n");
    }
    chunks.push(`--${boundary}--\r\n`);
    if (random() < 0.3) chunks.push("an epilogue");
    const body = join(chunks);
    const stepBytes = 1 + Math.floor(random() * 64);
    const where = `round ${round}, boundary ${JSON.stringify(boundary)}, step ${stepBytes}`;
    if (parts.length === 0) {
      // The runtime refuses a form of no parts; so does nothing here, it is simply empty.
      assertEquals(read(body, boundary, stepBytes), { fields: {}, files: [] }, where);
      continue;
    }
    const form = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary="${boundary}"` },
      body,
    }).formData();
    const expected = { fields: {} as Record<string, string>, files: [] as unknown[] };
    for (const [field, value] of form.entries()) {
      if (typeof value === "string") expected.fields[field] = value;
      else {
        expected.files.push({
          field,
          filename: value.name,
          contentType: value.type,
          data: [...new Uint8Array(await value.arrayBuffer())],
        });
      }
    }
    const got = read(body, boundary, stepBytes);
    assertEquals<unknown>(
      {
        fields: got.fields,
        // The runtime types a file that names none as application/octet-stream; the reader leaves it empty.
        files: got.files.map((f) => ({
          ...f,
          contentType: f.contentType || "application/octet-stream",
          data: [...f.data],
        })),
      },
      expected,
      where,
    );
  }
});

Deno.test("MultipartReader: files are views into the body, and a form the gateway writes reads back as it was", () => {
  const data = ENCODER.encode("\r\n--gateway-\r\n--gateway-2--\r\n\n--gateway-1");
  const encoded = encodeMultipart({
    fields: { model: "gpt-image-1", prompt: 'say "hi"\r\nplease' },
    files: [{ field: "image", filename: "a.png", contentType: "image/png", data }],
  }, "gateway-1");
  const body = join(encoded.parts);
  const form = read(body, multipartBoundary(encoded.contentType));
  assertEquals(form.fields, { model: "gpt-image-1", prompt: 'say "hi"\r\nplease' });
  assertEquals(form.files.map((f) => [f.field, f.filename, f.contentType, [...f.data]]), [
    ["image", "a.png", "image/png", [...data]],
  ]);
  assert(form.files[0].data.buffer === body.buffer, "the file was copied out of the body");
});

Deno.test("MultipartReader: a boundary and a file of one repeated letter (the slow case of a backward search) read right", () => {
  const boundary = "a".repeat(70);
  const content = new Uint8Array(200_000).fill(0x61);
  const body = join([
    `--${boundary}\r\ncontent-disposition: form-data; name="f"; filename="x"\r\n\r\n`,
    content,
    `\r\n--${boundary}--`,
  ]);
  const form = read(body, boundary, 4096);
  assertEquals(form.files[0].data.length, content.length);
  assert(form.files[0].data.every((byte) => byte === 0x61));
});

Deno.test("MultipartReader: the delimiter's bytes followed by anything but a line end or `--` are content", () => {
  const content = "x\r\n--bad\r\n--b\tz\r\n--bb";
  const body = join([
    `--b\r\ncontent-disposition: form-data; name="f"; filename="x"\r\n\r\n${content}\r\n--b \r\n`,
    `content-disposition: form-data; name="g"\r\n\r\nv\r\n--b--`,
  ]);
  const form = read(body, "b", 3);
  assertEquals(new TextDecoder().decode(form.files[0].data), content);
  assertEquals(form.fields, { g: "v" });
});

Deno.test("MultipartReader: filename* (RFC 8187) and quoted-pair escapes are read; a part without a name is skipped", () => {
  const body = join([
    `--b\r\ncontent-disposition: form-data; name="f"; filename="plain.png"; filename*=UTF-8''%C3%A9t%C3%A9.png\r\n\r\nX\r\n`,
    `--b\r\ncontent-disposition: form-data; name="say \\"hi\\""\r\n\r\nY\r\n`,
    `--b\r\ncontent-type: text/plain\r\n\r\nnameless\r\n`,
    `--b--\r\n`,
  ]);
  const form = read(body, "b");
  assertEquals(form.files.map((f) => f.filename), ["été.png"]);
  assertEquals(form.fields, { 'say "hi"': "Y" });
});

Deno.test("multipartBoundary: quoted or bare; a content type without a valid boundary is a 400 naming why", () => {
  assertEquals(multipartBoundary("multipart/form-data; boundary=abc"), "abc");
  assertEquals(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"'), "a b:c");
  for (
    const [type, why] of [
      ["multipart/form-data", "names no boundary"],
      ["multipart/form-data; boundary=", "names no boundary"],
      ['multipart/form-data; boundary="a\\"b"', "is not a valid one"],
      [`multipart/form-data; boundary=${"x".repeat(201)}`, "is not a valid one"],
    ]
  ) {
    const error = assertThrows(() => multipartBoundary(type), GatewayError, why);
    assertEquals([error.status, error.kind], [400, "invalid_request"], type);
  }
});

Deno.test("MultipartReader: forms it cannot read are 400s naming what is wrong", () => {
  const manyParts = join([
    ...Array.from(
      { length: MAX_PARTS + 1 },
      (_, i) => `--b\r\ncontent-disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
    ),
    "--b--",
  ]);
  const cases: [Uint8Array<ArrayBuffer>, string][] = [
    [join(["no boundary here at all"]), "no boundary line was found"],
    [
      join(['--b\r\ncontent-disposition: form-data; name="f"\r\n\r\ncut short']),
      "ends before its closing boundary",
    ],
    [join(["--bXY\r\n\r\nthe form of another boundary\r\n--bXY--"]), "no boundary line was found"],
    [
      join([`--b\r\ncontent-disposition: form-data; name="f"; ${"x".repeat(20_000)}\r\n\r\nv\r\n--b--`]),
      "headers are longer",
    ],
    [join(['--b\r\ncontent-disposition: form-data; name="f"']), "headers do not end"],
    [manyParts, `more than ${MAX_PARTS} parts`],
  ];
  for (const [body, why] of cases) {
    const error = assertThrows(() => read(body, "b", 1024), GatewayError, why);
    assertEquals([error.status, error.kind], [400, "invalid_request"], why);
  }
});
