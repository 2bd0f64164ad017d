/** The rerank codecs on their own: reading upstream answers, and what each client format gets back. */
import { GatewayError } from "../../../src/model/mod.ts";
import { rerankCodecFor, rerankFormatOfBase } from "../../../src/wire/rerank.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../../helpers/assert.ts";

const v1 = rerankCodecFor("v1");
const v2 = rerankCodecFor("v2");

Deno.test("decodeResponse() puts results most relevant first and cuts them to top_n when the upstream did not", () => {
  const answer = v1.decodeResponse({
    results: [{ index: 0, relevance_score: 0.1 }, { index: 2, relevance_score: 0.9 }, {
      index: 1,
      relevance_score: 0.5,
    }],
    meta: { billed_units: { search_units: 1 } },
    usage: { total_tokens: 12 },
  }, { documents: 3, topN: 2 });
  assertEquals(answer.results.map((r) => r.index), [2, 1]);
  assertEquals(answer.usage, { searchUnits: 1, inputTokens: 12 });
});

Deno.test("decodeResponse() refuses answers that are not rerank answers with a 502 naming what is wrong", () => {
  const cases: [unknown, string][] = [
    [{ data: [] }, "no `results` list"],
    [{ results: [{ index: 3, relevance_score: 1 }] }, "results[0].index is not a document position"],
    [{ results: [{ index: 0, relevance_score: "high" }] }, "results[0].relevance_score is not a number"],
    [
      { results: [{ index: 0, relevance_score: 1 }, { index: 0, relevance_score: 0.5 }] },
      "two results for document 0",
    ],
  ];
  for (const [body, says] of cases) {
    const error = assertThrows(() => v2.decodeResponse(body, { documents: 2 }), GatewayError);
    assertEquals(error.status, 502);
    assertStringIncludes(error.message, says);
  }
});

Deno.test("encodeResponse(): v1 returns documents as asked (filled from the request), v2 only when asked", () => {
  const documents = [{ kind: "text", text: "a" }, {
    kind: "object",
    fields: { text: "b", id: 9 },
    text: "b",
  }] as const;
  const response = { results: [{ index: 1, relevanceScore: 0.8 }, { index: 0, relevanceScore: 0.2 }] };
  const asked = v1.encodeResponse(response, { requestModel: "p/m", documents, returnDocuments: true });
  assertEquals(asked.results, [
    { index: 1, relevance_score: 0.8, document: { text: "b", id: 9 } },
    { index: 0, relevance_score: 0.2, document: { text: "a" } },
  ]);
  const silent = v1.encodeResponse(response, { requestModel: "p/m", documents });
  assertEquals((silent.results as unknown[]).length, 2);
  assertEquals(JSON.stringify(silent.results).includes("document"), false);
  const plain = v2.encodeResponse(response, { requestModel: "p/m", documents });
  assertEquals(plain, {
    results: [{ index: 1, relevance_score: 0.8 }, { index: 0, relevance_score: 0.2 }],
    meta: { api_version: { version: "2" }, billed_units: {} },
  });
});

Deno.test("rerankFormatOfBase(): Cohere's v2 base URL speaks v2, every other base the v1 shape", () => {
  assertEquals(rerankFormatOfBase("https://api.cohere.com/v2"), "v2");
  assertEquals(rerankFormatOfBase("https://api.cohere.com/v2/"), "v2");
  assertEquals(rerankFormatOfBase("https://api.jina.ai/v1"), "v1");
  assertEquals(rerankFormatOfBase("http://127.0.0.1:8000/v1"), "v1");
});
