import { assert, assertEquals } from "./helpers/assert.ts";
import { ByteSlab, LARGEST_SLAB_TAKE, SLAB_BYTES } from "../src/byte_slab.ts";

/** Whether two views share any byte of the same buffer. */
function overlap(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.length &&
    b.byteOffset < a.byteOffset + a.length;
}

Deno.test("arrays from a slab never share a byte, and writing one leaves the others as they were", () => {
  const slab = new ByteSlab();
  const taken: Uint8Array[] = [];
  // Sizes that do not divide the slab, so some takes meet a slab's end and start a new one.
  for (let i = 0; i < 200; i++) {
    const bytes = slab.take(1 + (i * 37) % 300);
    bytes.fill(i % 256);
    taken.push(bytes);
  }
  for (let i = 0; i < taken.length; i++) {
    assert(taken[i].every((b) => b === i % 256), `array ${i} was overwritten`);
    for (let j = i + 1; j < taken.length; j++) {
      assert(!overlap(taken[i], taken[j]), `arrays ${i} and ${j} overlap`);
    }
  }
  assert(new Set(taken.map((t) => t.buffer)).size > 1, "the takes spanned more than one slab");
  assert(taken.every((t) => t.buffer.byteLength === SLAB_BYTES));
});

Deno.test("an array larger than the largest take gets a buffer of its own", () => {
  const slab = new ByteSlab();
  const big = slab.take(LARGEST_SLAB_TAKE + 1);
  assertEquals([big.byteOffset, big.buffer.byteLength], [0, LARGEST_SLAB_TAKE + 1]);
  const text = "x".repeat(LARGEST_SLAB_TAKE);
  assertEquals(slab.encode(text).buffer.byteLength, LARGEST_SLAB_TAKE);
});

Deno.test("copy and encode give the same bytes as slice and TextEncoder, whatever the text", () => {
  const slab = new ByteSlab();
  const encoder = new TextEncoder();
  // ASCII, two-, three- and four-byte characters, a lone surrogate (encoded as U+FFFD) and the empty text.
  const texts = [
    'data: {"a":1}\n\n',
    "é".repeat(100),
    "中文".repeat(50),
    "\u{1F600}".repeat(80),
    "a\ud800b",
    "",
  ];
  for (let round = 0; round < 20; round++) {
    for (const text of texts) {
      const encoded = slab.encode(text);
      assertEquals(encoded, encoder.encode(text), JSON.stringify(text));
      const copied = slab.copy(encoded);
      assertEquals(copied, encoded);
      assert(!overlap(copied, encoded));
    }
  }
});

Deno.test("a text encoded into a slab takes only the bytes it wrote: the next array starts right after it", () => {
  const slab = new ByteSlab();
  // A fresh slab: both fit in it.
  const first = slab.encode("abc");
  const second = slab.take(4);
  assertEquals(first.length, 3);
  assert(first.buffer === second.buffer);
  assertEquals(second.byteOffset, first.byteOffset + 3);
});
