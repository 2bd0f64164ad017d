import { concatBytes } from "../../src/bytes.ts";
import { jsonHead, slicedJsonBytes } from "../../src/gateway/sliced_json.ts";
import { isBigJson } from "../../src/json_size.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { cutIntoPieces, LONG_STRING_CHARS, LongStrings } from "../../src/long_strings.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const utf8 = new TextEncoder();

/** Characters JSON escapes, or that take 2-4 UTF-8 bytes, or that pair up: where slices could go wrong. */
const PIECES = [
  "a",
  "Z",
  " ",
  '"',
  "\\",
  "\n",
  "\u0000",
  "\u001f",
  "\u2028",
  "é",
  "✓",
  "😀",
  "\ud800",
  "\udfff",
];

function randomString(random: () => number, maxLength: number): string {
  let text = "";
  const length = Math.floor(random() * maxLength);
  for (let i = 0; i < length; i++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

function randomValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth > 3 || roll < 0.45) return randomString(random, 40);
  if (roll < 0.55) return Math.floor(random() * 2000) - 1000;
  if (roll < 0.6) return random() < 0.5;
  if (roll < 0.65) return null;
  if (roll < 0.8) {
    // JSON.stringify writes an array's undefined as null.
    return Array.from(
      { length: Math.floor(random() * 4) },
      () => random() < 0.1 ? undefined : randomValue(random, depth + 1),
    );
  }
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 4); i > 0; i--) {
    object[randomString(random, 6)] = randomValue(random, depth + 1);
  }
  if (random() < 0.2) object.skipped = undefined;
  return object;
}

Deno.test("slicedJsonBytes gives JSON.stringify's bytes for 400 seeded values, whatever the slice size", async () => {
  const random = mulberry32(31);
  for (let i = 0; i < 400; i++) {
    const value = randomValue(random, 0);
    const limit = 1 + Math.floor(random() * 12);
    const slice = 1 + Math.floor(random() * 7);
    const parts = await slicedJsonBytes(value, { limit, sliceChars: slice });
    const expected = utf8.encode(JSON.stringify(value));
    assertEquals(
      concatBytes(parts),
      expected,
      `value ${i}: ${JSON.stringify(value)} (limit ${limit}, slice ${slice})`,
    );
  }
});

Deno.test("jsonHead is the first characters of JSON.stringify for 400 seeded values, long strings read from their pieces", () => {
  const random = mulberry32(47);
  for (let i = 0; i < 400; i++) {
    const value = randomValue(random, 0);
    const whole = JSON.stringify(value);
    const chars = 1 + Math.floor(random() * (whole.length + 5));
    assertEquals(jsonHead(value, chars), whole.slice(0, chars), `value ${i}: ${whole} (${chars} characters)`);
  }
  const text = "é".repeat(LONG_STRING_CHARS + 10);
  const longStrings = new LongStrings();
  longStrings.add(text, cutIntoPieces(text));
  assertEquals(jsonHead({ a: 1, text }, 100, longStrings), JSON.stringify({ a: 1, text }).slice(0, 100));
});

Deno.test("slicedJsonBytes never ends a slice between the halves of a surrogate pair", async () => {
  const text = "😀".repeat(9);
  for (const slice of [1, 2, 3, 5]) {
    const parts = await slicedJsonBytes({ text }, { limit: 4, sliceChars: slice });
    // Skeleton before, the slices, skeleton after: every slice is whole characters.
    for (const part of parts.slice(1, -1)) assertEquals(utf8.encode(new TextDecoder().decode(part)), part);
    assertEquals(concatBytes(parts), utf8.encode(JSON.stringify({ text })));
  }
});

Deno.test("slicedJsonBytes yields to the event loop between slices", async () => {
  let timerRan = false;
  setTimeout(() => timerRan = true, 0);
  const value = { messages: [{ content: "x".repeat(64) }] };
  const parts = await slicedJsonBytes(value, { limit: 16, sliceChars: 8 });
  assert(timerRan, "a timer set before the encoding ran before it ended");
  // One part per slice of the long string, among the punctuation around it.
  assertEquals(parts.filter((part) => new TextDecoder().decode(part) === "x".repeat(8)).length, 8);
  assertEquals(concatBytes(parts), utf8.encode(JSON.stringify(value)));
});

Deno.test("isBigJson counts strings, keys and values, at any depth, and stops once it knows", () => {
  assertEquals(isBigJson("abcd", 6), true);
  assertEquals(isBigJson("abc", 6), false);
  assertEquals(isBigJson({ a: [1, null, { b: ["x", "abcdefghij"] }] }, 30), true);
  assertEquals(isBigJson({ a: [1, null, { b: ["x", "abc"] }] }, 50), false);
  assertEquals(isBigJson({ ["k".repeat(50)]: "x" }, 50), true);
  assertEquals(isBigJson(Array(100).fill(7), 500), true);
  assertEquals(isBigJson(Array(10).fill(7), 500), false);
});
