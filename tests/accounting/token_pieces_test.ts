import { countTokens } from "gpt-tokenizer";
import { assert, assertEquals } from "../helpers/assert.ts";
import { estimateTokens, loadTokenizer } from "../../src/accounting/mod.ts";
import { PIECE_CHARS, pieceEnd } from "../../src/accounting/token_pieces.ts";

const WHOLE = { disallowedSpecial: new Set<string>() };

/** All pieces of `text`, as the estimate cuts them. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start);
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** Deterministic text from an alphabet (high bits of an LCG: its low bits repeat quickly). */
function randomText(length: number, alphabet: string, seed = 7): string {
  let state = seed;
  let text = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    text += alphabet[(state >>> 16) % alphabet.length];
  }
  return text;
}

const PROSE = "The quick brown fox, who'd jumped 1,234 times (twice on Sundays), isn't tired.\n\n" +
  "  Indented: naïve café — déjà vu; URLs like https://example.com/a/b?c=d&e=f stay whole. 😀 ok\r\n";

Deno.test("pieceEnd() cuts every text into pieces of at most PIECE_CHARS that join back to it", () => {
  for (
    const text of [
      PROSE.repeat(40),
      "a".repeat(5000),
      " ".repeat(3000),
      "😀".repeat(2000),
      JSON.stringify({ deep: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}` })) }),
    ]
  ) {
    const cut = pieces(text);
    assertEquals(cut.join(""), text);
    assert(cut.every((piece) => piece.length > 0 && piece.length <= PIECE_CHARS));
    // A surrogate pair is never split: every piece is well-formed text.
    assert(cut.every((piece) => piece.isWellFormed()));
  }
});

Deno.test("estimateTokens() equals the whole-text count on prose, code and minified JSON (cuts on pre-token boundaries)", async () => {
  await loadTokenizer();
  const json = JSON.stringify({
    tools: Array.from({ length: 40 }, (_, i) => ({
      name: `get_weather_${i}`,
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
    })),
  });
  const code = await Deno.readTextFile(new URL("../../src/accounting/estimate.ts", import.meta.url));
  for (
    const text of [PROSE.repeat(50), json, code, randomText(20_000, "的一是不了人我在有他这中大来上们，。 ")]
  ) {
    assertEquals(estimateTokens(text), countTokens(text, WHOLE));
  }
});

Deno.test("estimateTokens() stays within 0.5% of the whole count on runs with no boundary", async () => {
  await loadTokenizer();
  for (
    const text of [
      randomText(20_000, "abcdefghijklmnopqrstuvwxyz"),
      btoa(randomText(15_000, "abcdefghij0123456789 .,")),
      randomText(20_000, "!@#$%^&*()[]{}"),
    ]
  ) {
    const exact = countTokens(text, WHOLE);
    const estimate = estimateTokens(text);
    assert(Math.abs(estimate - exact) / exact < 0.005, `${estimate} vs ${exact}`);
  }
});
