import { countTextTokens, EXACT_CHARS, loadTokenizer, READ_CHARS } from "../../src/accounting/mod.ts";
import { LongStrings } from "../../src/long_strings.ts";
import { TokenCounter } from "../../src/gateway/token_counter.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

/** Runs `use` with a fresh counter and stops its worker after. */
async function withCounter(use: (counter: TokenCounter) => Promise<void>): Promise<void> {
  const counter = new TokenCounter();
  try {
    await use(counter);
  } finally {
    counter.close();
  }
}

/** The count the worker would give for all the texts as one (the reference). */
async function reference(texts: readonly string[]): Promise<number> {
  await loadTokenizer();
  return await countTextTokens(texts);
}

Deno.test("TokenCounter: counts made of kept per-text counts equal counting the texts together", () =>
  withCounter(async (counter) => {
    const next = mulberry32(5);
    const words = [
      "the",
      " gateway",
      " 🙂",
      " 東京",
      "\n",
      "function f(x) {",
      " return x;}",
      " über",
      "  ",
      "123",
    ];
    const text = () =>
      Array.from({ length: 1 + Math.floor(next() * 60) }, () => words[Math.floor(next() * 10)]).join("");
    const pool = Array.from({ length: 12 }, text);
    for (let i = 0; i < 25; i++) {
      // Requests that share texts (a system prompt, earlier turns) and repeat some within themselves.
      const texts = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => pool[Math.floor(next() * pool.length)],
      );
      assertEquals(await counter.count(texts), await reference(texts), `request ${i}`);
    }
    assertEquals(await counter.count([]), 0);
  }));

Deno.test("TokenCounter: texts counted before are not posted again; a new one is", () =>
  withCounter(async (counter) => {
    const system = "You are a coding assistant. ".repeat(200);
    await counter.count([system, "first question"]);
    const posted = counter.started;
    assertEquals(
      await counter.count([system, "first question"]),
      await reference([system, "first question"]),
    );
    assertEquals(counter.started, posted);
    assertEquals(
      await counter.count([system, "second question"]),
      await reference([system, "second question"]),
    );
    assertEquals(counter.started, posted + 1);
  }));

Deno.test("TokenCounter: texts over EXACT_CHARS together are counted whole, each time, as extrapolated", () =>
  withCounter(async (counter) => {
    const texts = ["a short one", "word ".repeat(EXACT_CHARS / 4), "and a tail"];
    const expected = await reference(texts);
    assertEquals(await counter.count(texts), expected);
    const posted = counter.started;
    assertEquals(await counter.count(texts), expected);
    assertEquals(counter.started, posted + 1);
  }));

Deno.test("TokenCounter keeps at most about a million characters of texts, the least recently used out first", () =>
  withCounter(async (counter) => {
    // Eight texts of 200 k characters each, counted one request at a time: the first ones are dropped.
    const texts = Array.from({ length: 8 }, (_, i) => `${i} `.repeat(100_000));
    for (const text of texts) await counter.count([text]);
    const posted = counter.started;
    await counter.count([texts[7]]);
    assertEquals(counter.started, posted, "the newest is kept");
    await counter.count([texts[0]]);
    assertEquals(counter.started, posted + 1, "the oldest was dropped");
  }));

Deno.test("countTextTokens() of heads of READ_CHARS with the whole lengths equals the count of the whole texts", async () => {
  await loadTokenizer();
  const next = mulberry32(17);
  // Texts with no break for long stretches too: there the tokenizer's pieces end where the window ends.
  const words = [
    " word",
    "ab",
    "🙂",
    " 東京",
    "\n",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "  ",
    "9",
  ];
  let cut = 0;
  for (let i = 0; i < 6; i++) {
    const texts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
      const parts: string[] = [];
      const target = Math.floor(next() * 1.5 * EXACT_CHARS);
      for (let length = 0; length < target;) {
        const word = words[Math.floor(next() * words.length)];
        parts.push(word);
        length += word.length;
      }
      return parts.join("");
    });
    let room = READ_CHARS;
    const heads = texts.map((text) => {
      const head = text.slice(0, Math.max(0, room));
      room -= head.length;
      return head;
    });
    const lengths = texts.map((text) => text.length);
    if (heads.some((head, at) => head !== texts[at])) cut++;
    assertEquals(await countTextTokens(heads, undefined, lengths), await countTextTokens(texts), `case ${i}`);
  }
  assert(cut >= 3, `${cut} of 6 cases had a text cut to its head`);
});

Deno.test("TokenCounter: a text held in pieces is counted from its head, as if whole", () =>
  withCounter(async (counter) => {
    const pieces = [
      "lorem ipsum ".repeat(40_000),
      "dolor sit amet ".repeat(40_000),
      "consectetur ".repeat(10),
    ];
    const text = pieces.join("");
    const longStrings = new LongStrings();
    longStrings.add(text, pieces);
    const texts = ["system prompt", text, "a tail"];
    assertEquals(await counter.count(texts, longStrings), await reference(texts));
  }));
