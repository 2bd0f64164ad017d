import { countTextTokens, EXACT_CHARS, loadTokenizer } from "../../src/accounting/mod.ts";
import { TokenCounter } from "../../src/gateway/token_counter.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { assertEquals } from "../helpers/assert.ts";

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
