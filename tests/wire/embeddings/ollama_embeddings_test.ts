import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { embeddingsCodecFor } from "../../../src/wire/embeddings.ts";

const codec = embeddingsCodecFor("ollama");

Deno.test("decodeRequest() reads /api/embed with truncate, dimensions, options and keep_alive", () => {
  const request = codec.decodeRequest({
    model: "local/nomic-embed-text",
    input: ["a", "b"],
    truncate: false,
    dimensions: 64,
    options: { num_ctx: 2048 },
    keep_alive: "5m",
  }, { endpoint: "embed" });
  assertEquals(request, {
    model: "local/nomic-embed-text",
    inputs: [{ kind: "text", text: "a" }, { kind: "text", text: "b" }],
    encoding: "float",
    source: "ollama",
    truncate: false,
    dimensions: 64,
    extra: { format: "ollama", fields: { options: { num_ctx: 2048 }, keep_alive: "5m" } },
  });
});

Deno.test("decodeRequest() reads the legacy /api/embeddings prompt", () => {
  const request = codec.decodeRequest({ model: "local/e", prompt: "hello" }, { endpoint: "embeddings" });
  assertEquals(request.inputs, [{ kind: "text", text: "hello" }]);
  const error = assertThrows(
    () => codec.decodeRequest({ model: "local/e" }, { endpoint: "embeddings" }),
    GatewayError,
  );
  assertEquals(error.message, "prompt: is required");
});

Deno.test("encodeRequest() calls /api/embed, keeping same-format options and mapping the legacy prompt", () => {
  const legacy = codec.decodeRequest({ model: "local/e", prompt: "hi", options: { seed: 1 } }, {
    endpoint: "embeddings",
  });
  const encoded = codec.encodeRequest(legacy, "nomic-embed-text");
  assertEquals(encoded, {
    body: { options: { seed: 1 }, model: "nomic-embed-text", input: "hi" },
    endpoint: "embed",
    warnings: [],
  });
});

Deno.test("encodeRequest() warns about what Ollama cannot take and refuses token ids", () => {
  const encoded = codec.encodeRequest({
    model: "m",
    inputs: [{ kind: "text", text: "a" }],
    encoding: "float",
    taskType: "clustering",
    user: "u",
    source: "openai",
  }, "e");
  assertEquals(encoded.warnings.map((w) => w.code), ["dropped_field:task_type", "dropped_field:user"]);
  const error = assertThrows(
    () =>
      codec.encodeRequest({
        model: "m",
        inputs: [{ kind: "tokens", tokens: [1] }],
        encoding: "float",
        source: "openai",
      }, "e"),
    GatewayError,
  );
  assertEquals(error.status, 400);
});

Deno.test("decodeResponse() reads embeddings and prompt_eval_count; encodeResponse() answers either endpoint", () => {
  const response = codec.decodeResponse(
    { model: "nomic-embed-text", embeddings: [[0.1, 0.2]], prompt_eval_count: 5, total_duration: 9 },
    { inputs: 1, upstreamModel: "x" },
  );
  assertEquals(response, { model: "nomic-embed-text", vectors: [[0.1, 0.2]], usage: { inputTokens: 5 } });
  assertEquals(
    codec.encodeResponse(response, { requestModel: "local/e", endpoint: "embeddings", encoding: "float" }),
    {
      embedding: [0.1, 0.2],
    },
  );
  assertEquals(
    codec.encodeResponse(response, { requestModel: "local/e", endpoint: "embed", encoding: "float" }),
    {
      model: "local/e",
      embeddings: [[0.1, 0.2]],
      total_duration: 0,
      load_duration: 0,
      prompt_eval_count: 5,
    },
  );
});

Deno.test("encodeError() uses the Ollama envelope", () => {
  assertEquals(codec.encodeError(new GatewayError(400, "invalid_request", "bad")).body, { error: "bad" });
});
