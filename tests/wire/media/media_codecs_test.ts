import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError, type NeutralImageRequest } from "../../../src/model/mod.ts";
import { decodeGeminiImageResponse, encodeGeminiImageRequest } from "../../../src/wire/gemini_images/mod.ts";
import {
  decodeImageEdit,
  decodeImageGeneration,
  encodeOpenAiImageRequest,
  encodeOpenAiImageResponse,
} from "../../../src/wire/openai_images/mod.ts";
import { decodeSpeech, transcriptionBill } from "../../../src/wire/openai_audio/mod.ts";
import { encodeMultipart } from "../../../src/wire/shared/multipart.ts";
import { mayServe } from "../../../src/routing/mod.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

function ask(overrides: Partial<NeutralImageRequest> = {}): NeutralImageRequest {
  return { model: "p/m", prompt: "an apple", n: 1, images: [], ...overrides };
}

Deno.test("images decode: a 400 names the field (prompt, n, response_format, a missing edit image)", () => {
  const problems: [unknown, string][] = [
    [{ model: "m" }, "prompt: is required"],
    [{ model: "m", prompt: "x", n: 11 }, "n: must be an integer from 1 to 10"],
    [{ model: "m", prompt: "x", response_format: "png" }, 'response_format: must be "url" or "b64_json"'],
    [{ model: "m", prompt: "x", size: { w: 1 } }, "size: must be a string, number or boolean"],
    [{ model: "m", prompt: "x", stream: true }, "stream: streamed image generation is not supported"],
  ];
  for (const [body, message] of problems) {
    const error = assertThrows(() => decodeImageGeneration(body), GatewayError);
    assertEquals([error.status, error.message.startsWith(message)], [400, true], error.message);
  }
  const edit = assertThrows(
    () => decodeImageEdit({ fields: { model: "m", prompt: "x" }, files: [] }),
    GatewayError,
  );
  assertEquals(edit.message.startsWith("image: is required"), true);
});

Deno.test("images encode: an edit with several images is multipart image[] plus the mask; gpt-image gets no response_format", () => {
  const file = { field: "image", filename: "a.png", contentType: "image/png", data: PNG };
  const request = decodeImageEdit({
    fields: { model: "p/m", prompt: "blue", n: "2", response_format: "b64_json", background: "transparent" },
    files: [file, { ...file, filename: "b.png" }, { ...file, field: "mask", filename: "mask.png" }],
  });
  const encoded = encodeOpenAiImageRequest(request, "gpt-image-1");
  if (encoded.kind !== "multipart") throw new Error("expected multipart");
  assertEquals(encoded.body.fields, {
    background: "transparent",
    model: "gpt-image-1",
    prompt: "blue",
    n: "2",
  });
  assertEquals(encoded.body.files.map((f) => [f.field, f.filename]), [
    ["image[]", "a.png"],
    ["image[]", "b.png"],
    ["mask", "mask.png"],
  ]);
});

Deno.test("encodeMultipart(): a body that a standard form parser reads back field for field and byte for byte", async () => {
  const { parts, contentType } = encodeMultipart({
    fields: { model: "whisper-1", prompt: 'say "hi"\nplease' },
    files: [{ field: "file", filename: "a b.mp3", contentType: "audio/mpeg", data: PNG }],
  }, "boundary-1");
  const form = await new Request("http://x/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: new Blob([...parts]),
  })
    .formData();
  assertEquals(form.get("model"), "whisper-1");
  assertEquals(form.get("prompt"), 'say "hi"\nplease');
  const file = form.get("file") as File;
  assertEquals([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]], [
    "a b.mp3",
    "audio/mpeg",
    [...PNG],
  ]);
});

Deno.test("Gemini images: size → nearest aspect ratio, what Gemini cannot take is a warning each, no image is a 502", () => {
  const encoded = encodeGeminiImageRequest(
    ask({ size: "1024x1536", n: 2, quality: "hd", extra: { style: "vivid" } }),
  );
  assertEquals(encoded.body.generationConfig, {
    responseModalities: ["TEXT", "IMAGE"],
    imageConfig: { aspectRatio: "2:3" },
  });
  assertEquals(encoded.warnings.map((w) => w.code), [
    "dropped_field:n",
    "dropped_field:quality",
    "dropped_field:style",
  ]);
  const strip = encodeGeminiImageRequest(ask({ size: "5000x100" }));
  assertEquals(strip.warnings.map((w) => w.code), ["dropped_field:size"]);
  const refused = assertThrows(
    () =>
      decodeGeminiImageResponse({ candidates: [{ content: { parts: [{ text: "I cannot draw that." }] } }] }),
    GatewayError,
  );
  assertEquals(refused.status, 502);
  assertEquals(refused.message.includes("I cannot draw that."), true);
});

Deno.test("encodeOpenAiImageResponse(): base64 to a url client is a data: URL; usage is reported when known", () => {
  const body = encodeOpenAiImageResponse(
    {
      images: [{ b64: "QUJD", mediaType: "image/webp" }],
      usage: { inputTotal: 10, cacheRead: 0, cacheWrite: 0, output: 20, reasoning: 0 },
    },
    "url",
    5,
  );
  assertEquals(body, {
    created: 5,
    data: [{ url: "data:image/webp;base64,QUJD" }],
    usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30 },
  });
});

Deno.test("audio: speech input is checked; a transcription's bill comes from duration or token usage", () => {
  const long = assertThrows(
    () => decodeSpeech({ model: "m", input: "x".repeat(4097), voice: "alloy" }),
    GatewayError,
  );
  assertEquals(long.message.startsWith("input: is 4097 characters"), true);
  assertEquals(transcriptionBill({ text: "hi", duration: 12.5 }), { seconds: 12.5 });
  assertEquals(transcriptionBill({ usage: { type: "duration", seconds: 3 } }), { seconds: 3 });
  assertEquals(
    transcriptionBill({ usage: { type: "tokens", input_tokens: 5, output_tokens: 2 } }).usage?.output,
    2,
  );
});

Deno.test("mayServe(): chat and embedding names are refused for media; image, audio and unknown names pass", () => {
  assertEquals(mayServe("image_generation", "gpt-4o"), false);
  assertEquals(mayServe("image_generation", "claude-sonnet-4"), false);
  assertEquals(mayServe("speech", "text-embedding-3-small"), false);
  assertEquals(mayServe("image_generation", "gemini-2.5-flash-image"), true);
  assertEquals(mayServe("transcription", "gpt-4o-transcribe"), true);
  assertEquals(mayServe("speech", "gpt-4o-mini-tts"), true);
  assertEquals(mayServe("image_generation", "my-house-model"), true);
});
