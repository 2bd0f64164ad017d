import { assert, assertEquals } from "../helpers/assert.ts";
import {
  buildPriceTable,
  BUILTIN_KIND_PRICES,
  BUILTIN_PRICES,
  embeddingCost,
  imageCost,
  imagePrice,
  lookupPrice,
  rerankCost,
  speechCost,
  transcriptionCost,
} from "../../src/accounting/mod.ts";

const table = buildPriceTable({ ...BUILTIN_PRICES, ...BUILTIN_KIND_PRICES }, {});
const price = (model: string) => lookupPrice(table, model)?.price ?? null;
const close = (a: number, b: number, label: string) =>
  assert(Math.abs(a - b) < 1e-12, `${label}: ${a} ≠ ${b}`);

Deno.test("kind builtins sit beside the spec's 28 chat builtins without changing them", () => {
  assertEquals(Object.keys(BUILTIN_PRICES).length, 28);
  for (const model of Object.keys(BUILTIN_KIND_PRICES)) assert(!(model in BUILTIN_PRICES), model);
});

Deno.test("embeddingCost() bills input tokens at the model's rate, found by prefix as chat prices are", () => {
  close(embeddingCost(1_000_000, price("openai/text-embedding-3-small")), 0.02, "3-small");
  close(embeddingCost(2_000_000, price("text-embedding-3-large")), 0.26, "3-large");
  close(embeddingCost(1_000_000, price("gem/gemini-embedding-001")), 0.15, "gemini");
  assertEquals(embeddingCost(1_000, null), 0);
});

Deno.test("imagePrice() picks the most specific variant, then falls back", () => {
  const dalle = price("dall-e-3")!.perImage!;
  assertEquals(imagePrice(dalle, "hd", "1792x1024"), 0.12);
  assertEquals(imagePrice(dalle, "HD", "1024X1024"), 0.08);
  assertEquals(imagePrice(dalle), 0.04);
  assertEquals(imagePrice({ "@256x256": 1 }, "hd", "512x512"), undefined);
});

Deno.test("imageCost() prefers reported token usage, else per image of the variant", () => {
  const gptImage = price("gpt-image-1");
  close(imageCost({ images: 2, quality: "high", size: "1536x1024" }, gptImage), 0.5, "per image");
  close(imageCost({ images: 1, quality: "low", size: "1024x1024" }, gptImage), 0.011, "low square");
  const usage = { inputTotal: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 1_000_000, reasoning: 0 };
  close(imageCost({ images: 1, usage }, gptImage), 45, "tokens");
  close(imageCost({ images: 3, size: "1024x1024" }, price("dall-e-2")), 0.06, "dall-e-2");
  assertEquals(imageCost({ images: 3 }, price("gpt-4o")), 0, "a chat model has no image price");
});

Deno.test("transcriptionCost() bills seconds, or tokens when the answer reports them", () => {
  close(transcriptionCost({ seconds: 60 }, price("whisper-1")), 0.006, "whisper minute");
  const usage = { inputTotal: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  close(transcriptionCost({ seconds: 60, usage }, price("gpt-4o-transcribe")), 2.5, "tokens win");
  close(transcriptionCost({ seconds: 60 }, price("gpt-4o-mini-transcribe")), 0.003, "estimate");
  assertEquals(transcriptionCost({}, price("whisper-1")), 0);
});

Deno.test("speechCost() bills characters, or estimates a token-priced model from its input", () => {
  close(speechCost(1_000_000, 0, price("tts-1")), 15, "tts-1");
  close(speechCost(1_000, 0, price("tts-1-hd")), 0.03, "tts-1-hd");
  // 1k text tokens in ($0.0006) and ~6k audio tokens out ($0.072).
  close(speechCost(4_000, 1_000, price("gpt-4o-mini-tts")), 0.0726, "mini tts");
});

Deno.test("rerankCost() bills reported search units, else one per 100 documents; token-priced models by input tokens", () => {
  const cohere = { ...BUILTIN_KIND_PRICES["rerank-v3.5"] };
  assertEquals(rerankCost({ searchUnits: 3, documents: 5 }, cohere), 3 * 0.002);
  assertEquals(rerankCost({ documents: 250 }, cohere), 3 * 0.002);
  assertEquals(rerankCost({ documents: 0 }, cohere), 0.002);
  const jina = BUILTIN_KIND_PRICES["jina-reranker-v2-base-multilingual"];
  assertEquals(rerankCost({ inputTokens: 1_000_000, documents: 4 }, jina), 0.045);
  assertEquals(rerankCost({ documents: 4 }, jina), 0);
  assertEquals(rerankCost({ searchUnits: 2, documents: 4 }, null), 0);
});
