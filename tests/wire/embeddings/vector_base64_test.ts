import { assertEquals } from "../../helpers/assert.ts";
import { vectorFromBase64, vectorToBase64 } from "../../../src/wire/embeddings.ts";
import { Rng } from "../../fuzz/fuzzer.ts";

Deno.test("vectorToBase64() writes little-endian float32 as OpenAI does", () => {
  // 1.0 is 0x3f800000: bytes 00 00 80 3f little-endian.
  assertEquals(vectorToBase64([1]), "AACAPw==");
  assertEquals(vectorFromBase64("AACAPw=="), [1]);
});

Deno.test("vectorFromBase64() refuses text that is not whole float32 values", () => {
  assertEquals(vectorFromBase64("AACA"), undefined);
  assertEquals(vectorFromBase64("not base64!"), undefined);
  assertEquals(vectorFromBase64(""), []);
});

Deno.test("property: base64 round trips keep every value at float32 precision (500 random vectors)", () => {
  const rng = new Rng(28);
  for (let run = 0; run < 500; run++) {
    const vector = Array.from({ length: rng.size(1, 3072) }, () => (rng.float() - 0.5) * 10 ** rng.int(6));
    const back = vectorFromBase64(vectorToBase64(vector));
    assertEquals(back, vector.map(Math.fround), `run ${run}`);
    // A second trip changes nothing: the values are float32 already.
    assertEquals(vectorFromBase64(vectorToBase64(back!)), back);
  }
});
