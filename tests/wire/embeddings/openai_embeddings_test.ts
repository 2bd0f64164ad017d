import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { embeddingsCodecFor } from "../../../src/wire/embeddings.ts";

const codec = embeddingsCodecFor("openai");

function status400(fn: () => unknown, includes: string): void {
  const error = assertThrows(fn, GatewayError, includes);
  assertEquals([error.status, error.kind], [400, "invalid_request"]);
}

Deno.test("decodeRequest() reads a string, a list, a token list and a list of token lists", () => {
  const one = codec.decodeRequest({ model: "up/emb", input: "hello" }, {});
  assertEquals(one.inputs, [{ kind: "text", text: "hello" }]);
  assertEquals(one.encoding, "float");
  const list = codec.decodeRequest({ model: "up/emb", input: ["a", "b"], encoding_format: "base64" }, {});
  assertEquals(list.inputs.map((i) => i.kind === "text" && i.text), ["a", "b"]);
  assertEquals(list.encoding, "base64");
  const tokens = codec.decodeRequest({ model: "up/emb", input: [1, 2, 3] }, {});
  assertEquals(tokens.inputs, [{ kind: "tokens", tokens: [1, 2, 3] }]);
  const lists = codec.decodeRequest(
    { model: "up/emb", input: [[1], [2, 3]], dimensions: 256, user: "u1" },
    {},
  );
  assertEquals(lists.inputs.length, 2);
  assertEquals([lists.dimensions, lists.user], [256, "u1"]);
});

Deno.test("decodeRequest() names the field of bad input", () => {
  status400(() => codec.decodeRequest({ input: "x" }, {}), "model: is required");
  status400(() => codec.decodeRequest({ model: "m" }, {}), "input: is required");
  status400(() => codec.decodeRequest({ model: "m", input: [] }, {}), "input: must not be empty");
  status400(() => codec.decodeRequest({ model: "m", input: ["a", 1] }, {}), "input[1]: must be a string");
  status400(() => codec.decodeRequest({ model: "m", input: [1, -2] }, {}), "input[1]: must be a token id");
  status400(() => codec.decodeRequest({ model: "m", input: [[1], []] }, {}), "input[1]: must not be empty");
  status400(
    () => codec.decodeRequest({ model: "m", input: "a", dimensions: 0 }, {}),
    "dimensions: must be a positive",
  );
  status400(
    () => codec.decodeRequest({ model: "m", input: "a", encoding_format: "int8" }, {}),
    'encoding_format: must be one of "float", "base64"',
  );
  status400(() => codec.decodeRequest({ model: "m", input: Array(2049).fill("a") }, {}), "at most 2048");
  status400(() => codec.decodeRequest({ model: "m".repeat(300), input: "a" }, {}), "model: must be at most");
});

Deno.test("encodeRequest() keeps a same-format request whole and asks base64 only when the client wants it", () => {
  const request = codec.decodeRequest(
    { model: "up/emb", input: ["a", "b"], dimensions: 8, future_flag: 1 },
    {},
  );
  const encoded = codec.encodeRequest(request, "text-embedding-3-small");
  assertEquals(encoded.body, {
    future_flag: 1,
    model: "text-embedding-3-small",
    input: ["a", "b"],
    dimensions: 8,
  });
  assertEquals([encoded.endpoint, encoded.warnings], ["embeddings", []]);
  const b64 = codec.encodeRequest(
    codec.decodeRequest({ model: "m", input: "a", encoding_format: "base64" }, {}),
    "x",
  );
  assertEquals(b64.body, { model: "x", input: "a", encoding_format: "base64" });
});

Deno.test("encodeRequest() warns about a Gemini task type and titles it cannot send", () => {
  const encoded = codec.encodeRequest({
    model: "m",
    inputs: [{ kind: "text", text: "doc", title: "T" }],
    encoding: "float",
    taskType: "retrieval_document",
    source: "gemini",
    extra: { format: "gemini", fields: { embedContentConfig: {} } },
  }, "x");
  assertEquals(encoded.warnings.map((w) => w.code), [
    "dropped_field:task_type",
    "dropped_field:title",
    "dropped_field:embed_content_config",
  ]);
  assertEquals(encoded.body, { model: "x", input: "doc" });
});

Deno.test("decodeResponse() places vectors by index and reads base64 vectors", () => {
  const b64 = codec.encodeResponse({ model: "m", vectors: [[0.5, -2]] }, {
    requestModel: "m",
    encoding: "base64",
  }) as {
    data: { embedding: string }[];
  };
  const decoded = codec.decodeResponse({
    object: "list",
    model: "text-embedding-3-small",
    data: [
      { object: "embedding", index: 1, embedding: b64.data[0].embedding },
      { object: "embedding", index: 0, embedding: [1, 2] },
    ],
    usage: { prompt_tokens: 7, total_tokens: 7 },
  }, { inputs: 2, upstreamModel: "x" });
  assertEquals(decoded, {
    model: "text-embedding-3-small",
    vectors: [[1, 2], [0.5, -2]],
    usage: { inputTokens: 7 },
  });
});

Deno.test("decodeResponse() refuses answers that do not line up with the inputs (502)", () => {
  const call = { inputs: 2, upstreamModel: "x" };
  for (
    const body of [
      null,
      { data: "x" },
      { data: [{ index: 0, embedding: [1] }] },
      { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] },
      { data: [{ index: 0, embedding: [1] }, { index: 5, embedding: [2] }] },
      { data: [{ index: 0, embedding: [1] }, { index: 1, embedding: "%%%" }] },
      { data: [{ index: 0, embedding: [1] }, { index: 1, embedding: [1, "2"] }] },
    ]
  ) {
    const error = assertThrows(() => codec.decodeResponse(body, call), GatewayError);
    assertEquals([error.status, error.kind], [502, "upstream"], JSON.stringify(body));
  }
});

Deno.test("encodeResponse() answers with the client's model name, indexes and usage", () => {
  const body = codec.encodeResponse(
    { model: "text-embedding-3-small", vectors: [[0.25], [0.5]], usage: { inputTokens: 3 } },
    { requestModel: "up/emb", encoding: "float" },
  );
  assertEquals(body, {
    object: "list",
    data: [{ object: "embedding", index: 0, embedding: [0.25] }, {
      object: "embedding",
      index: 1,
      embedding: [0.5],
    }],
    model: "up/emb",
    usage: { prompt_tokens: 3, total_tokens: 3 },
  });
});

Deno.test("encodeError() uses the OpenAI envelope", () => {
  const encoded = codec.encodeError(new GatewayError(400, "invalid_request", "input: is required"));
  assertEquals(encoded.status, 400);
  const body = encoded.body as { error: { type: string; message: string } };
  assertEquals(body.error.type, "invalid_request_error");
  assert(body.error.message.includes("input"));
});
