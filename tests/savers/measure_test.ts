import { utf8Length } from "../../src/savers/measure.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("utf8Length counts what TextEncoder writes, lone surrogates as U+FFFD (2000 random strings)", () => {
  const next = mulberry32(3);
  // ASCII, 2- and 3-byte characters, surrogate pairs, and halves of pairs on their own.
  const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0x2028, 0xfffd];
  const encoder = new TextEncoder();
  for (let i = 0; i < 2000; i++) {
    const text = String.fromCharCode(
      ...Array.from({ length: Math.floor(next() * 24) }, () => units[Math.floor(next() * units.length)]),
    );
    assertEquals(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
});
