import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError, type NeutralEmbeddingsRequest } from "../../../src/model/mod.ts";
import {
  mergeEmbeddingsResponses,
  mergeInOrder,
  splitBatches,
  splitEmbeddingsRequest,
} from "../../../src/wire/embeddings.ts";
import { Rng } from "../../fuzz/fuzzer.ts";

Deno.test("splitBatches() cuts at the limit and never makes an empty or oversized call", () => {
  assertEquals(splitBatches([1, 2, 3, 4, 5], 2), [
    { start: 0, items: [1, 2] },
    { start: 2, items: [3, 4] },
    { start: 4, items: [5] },
  ]);
  assertEquals(splitBatches([], 3), []);
  assertEquals(splitBatches([1, 2], 0).length, 2, "a limit below one still answers, one input per call");
  assertEquals(splitBatches([1, 2], Infinity).length, 1);
});

Deno.test("property: split, answered in random order, merged: vectors in input order and usage summed", () => {
  const rng = new Rng(2026);
  for (let run = 0; run < 300; run++) {
    const total = rng.size(1, 2048);
    const limit = rng.size(1, 300);
    const request: NeutralEmbeddingsRequest = {
      model: "m",
      inputs: Array.from({ length: total }, (_, i) => ({ kind: "text", text: `t${i}` })),
      encoding: "float",
      source: "openai",
    };
    const calls = splitEmbeddingsRequest(request, limit);
    assert(
      calls.every((c) => c.request.inputs.length >= 1 && c.request.inputs.length <= limit),
      "call sizes",
    );
    assertEquals(calls.length, Math.ceil(total / limit));
    // Each "upstream" embeds input i as [i] and counts 2 tokens per input.
    const answers = calls.map((c) => ({
      start: c.start,
      inputs: c.request.inputs.length,
      response: {
        model: "up",
        vectors: c.request.inputs.map((input) => [Number((input as { text: string }).text.slice(1))]),
        usage: { inputTokens: 2 * c.request.inputs.length },
      },
    }));
    for (let i = answers.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [answers[i], answers[j]] = [answers[j], answers[i]];
    }
    const merged = mergeEmbeddingsResponses(answers, total);
    assertEquals(merged.vectors, Array.from({ length: total }, (_, i) => [i]), `run ${run}`);
    assertEquals(merged.usage, { inputTokens: 2 * total });
  }
});

Deno.test("mergeEmbeddingsResponses() leaves usage to the estimate when any call reported none", () => {
  const merged = mergeEmbeddingsResponses([
    { start: 0, inputs: 1, response: { model: "g", vectors: [[1]], usage: { inputTokens: 3 } } },
    { start: 1, inputs: 1, response: { model: "g", vectors: [[2]] } },
  ], 2);
  assertEquals(merged, { model: "g", vectors: [[1], [2]] });
});

Deno.test("mergeEmbeddingsResponses() blames an upstream that answered the wrong number of vectors (502)", () => {
  const error = assertThrows(
    () => mergeEmbeddingsResponses([{ start: 0, inputs: 2, response: { model: "g", vectors: [[1]] } }], 2),
    GatewayError,
  );
  assertEquals(error.status, 502);
});

Deno.test("mergeInOrder() refuses gaps, overlaps and batches past the end", () => {
  assertThrows(() => mergeInOrder([{ start: 0, items: [1] }], 2), RangeError, "item 1 is in no batch");
  assertThrows(() => mergeInOrder([{ start: 0, items: [1, 2] }, { start: 1, items: [3] }], 2), RangeError);
  assertThrows(() => mergeInOrder([{ start: 1, items: [1, 2] }], 2), RangeError);
});
