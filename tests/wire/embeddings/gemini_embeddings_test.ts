import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { embeddingsCodecFor } from "../../../src/wire/embeddings.ts";
import { GEMINI_DEFAULT_PREFIX } from "../../../src/wire/gemini_embeddings/mod.ts";
import { DEFAULT_MODEL_PREFIX } from "../../../src/wire/generate_content/mod.ts";

const codec = embeddingsCodecFor("gemini");
const batchCtx = { pathModel: "up/gem-emb", endpoint: "batchEmbedContents" as const };

function status(fn: () => unknown, code: number, includes: string): void {
  const error = assertThrows(fn, GatewayError, includes);
  assertEquals(error.status, code);
}

Deno.test("the Gemini embeddings surface gives bare model names the generate-content surface's prefix", () => {
  assertEquals(GEMINI_DEFAULT_PREFIX, DEFAULT_MODEL_PREFIX);
  const request = codec.decodeRequest({ content: { parts: [{ text: "hi" }] } }, {
    pathModel: "gemini-embedding-001",
    endpoint: "embedContent",
  });
  assertEquals(request.model, "gemini/gemini-embedding-001");
});

Deno.test("decodeRequest() reads embedContent: text parts, task type, title, output size", () => {
  const request = codec.decodeRequest({
    content: { parts: [{ text: "Berlin" }, { text: "is big" }] },
    taskType: "RETRIEVAL_DOCUMENT",
    title: "Cities",
    outputDimensionality: 768,
  }, { pathModel: "up/gem-emb", endpoint: "embedContent" });
  assertEquals(request, {
    model: "up/gem-emb",
    inputs: [{ kind: "text", text: "Berlin\nis big", title: "Cities" }],
    encoding: "float",
    source: "gemini",
    taskType: "retrieval_document",
    dimensions: 768,
  });
});

Deno.test("decodeRequest() reads batchEmbedContents as @google/genai sends it", () => {
  const request = codec.decodeRequest({
    requests: [
      { model: "models/up/gem-emb", content: { parts: [{ text: "a" }] }, taskType: "RETRIEVAL_QUERY" },
      { model: "models/up/gem-emb", content: { parts: [{ text: "b" }] }, taskType: "RETRIEVAL_QUERY" },
    ],
  }, batchCtx);
  assertEquals(request.inputs.map((i) => i.kind === "text" && i.text), ["a", "b"]);
  assertEquals(request.taskType, "retrieval_query");
});

Deno.test("decodeRequest() refuses batches the neutral request cannot hold, naming the entry", () => {
  const entry = (extra: Record<string, unknown>) => ({ content: { parts: [{ text: "a" }] }, ...extra });
  status(
    () => codec.decodeRequest({ requests: [entry({}), entry({ model: "models/other" })] }, batchCtx),
    400,
    "requests[1].model: must name the model of the URL",
  );
  status(
    () =>
      codec.decodeRequest({
        requests: [entry({ taskType: "CLUSTERING" }), entry({ taskType: "CLASSIFICATION" })],
      }, batchCtx),
    400,
    "requests[1].taskType: must be the same for every request of a batch",
  );
  status(() => codec.decodeRequest({ requests: [] }, batchCtx), 400, "requests: must not be empty");
  status(
    () => codec.decodeRequest({ requests: [{ content: { parts: [{ inlineData: {} }] } }] }, batchCtx),
    400,
    "requests[0].content.parts[0]: must be a text part",
  );
  status(
    () => codec.decodeRequest({ requests: [entry({ taskType: "ANSWER_ME" })] }, batchCtx),
    400,
    "requests[0].taskType: must be one of RETRIEVAL_QUERY",
  );
});

Deno.test("encodeRequest() uses embedContent for one input and batchEmbedContents with per-request models for more", () => {
  const one = codec.encodeRequest({
    model: "m",
    inputs: [{ kind: "text", text: "a", title: "T" }],
    encoding: "base64",
    taskType: "retrieval_document",
    dimensions: 3,
    source: "openai",
  }, "gemini-embedding-001");
  assertEquals(one.endpoint, "embedContent");
  assertEquals(one.body, {
    content: { parts: [{ text: "a" }] },
    taskType: "RETRIEVAL_DOCUMENT",
    title: "T",
    outputDimensionality: 3,
  });
  assertEquals(one.warnings, []);
  const many = codec.encodeRequest({
    model: "m",
    inputs: [{ kind: "text", text: "a" }, { kind: "text", text: "b" }],
    encoding: "float",
    user: "u",
    source: "openai",
  }, "gemini-embedding-001");
  assertEquals(many.endpoint, "batchEmbedContents");
  assertEquals(many.body, {
    requests: [
      { model: "models/gemini-embedding-001", content: { parts: [{ text: "a" }] } },
      { model: "models/gemini-embedding-001", content: { parts: [{ text: "b" }] } },
    ],
  });
  assertEquals(many.warnings.map((w) => w.code), ["dropped_field:user"]);
});

Deno.test("encodeRequest() refuses token-id inputs with a 400 that says why", () => {
  status(
    () =>
      codec.encodeRequest({
        model: "m",
        inputs: [{ kind: "tokens", tokens: [1, 2] }],
        encoding: "float",
        source: "openai",
      }, "x"),
    400,
    "input[0]: token-id inputs cannot be sent to a Gemini embeddings upstream",
  );
  assertEquals(codec.capabilities.tokenInputs, false);
});

Deno.test("decodeResponse() reads both answer shapes, usage only when Gemini reports it", () => {
  assertEquals(
    codec.decodeResponse({ embedding: { values: [1, 2] } }, { inputs: 1, upstreamModel: "g" }),
    { model: "g", vectors: [[1, 2]] },
  );
  assertEquals(
    codec.decodeResponse(
      { embeddings: [{ values: [1] }, { values: [2] }], usageMetadata: { promptTokenCount: 4 } },
      { inputs: 2, upstreamModel: "g" },
    ),
    { model: "g", vectors: [[1], [2]], usage: { inputTokens: 4 } },
  );
  status(
    () => codec.decodeResponse({ embeddings: [{ values: [1] }] }, { inputs: 2, upstreamModel: "g" }),
    502,
    "1 embeddings for 2",
  );
  status(
    () => codec.decodeResponse({ embedding: { values: [] } }, { inputs: 1, upstreamModel: "g" }),
    502,
    "not a vector",
  );
});

Deno.test("encodeResponse() answers in the shape of the endpoint the client called", () => {
  const response = { model: "g", vectors: [[1], [2]] };
  assertEquals(
    codec.encodeResponse(response, { requestModel: "m", endpoint: "batchEmbedContents", encoding: "float" }),
    { embeddings: [{ values: [1] }, { values: [2] }] },
  );
  assertEquals(
    codec.encodeResponse({ model: "g", vectors: [[3]] }, {
      requestModel: "m",
      endpoint: "embedContent",
      encoding: "float",
    }),
    { embedding: { values: [3] } },
  );
});

Deno.test("encodeError() uses the Gemini envelope", () => {
  const encoded = codec.encodeError(new GatewayError(400, "invalid_request", "bad"));
  assertEquals(encoded.body, { error: { code: 400, message: "bad", status: "INVALID_ARGUMENT" } });
});
