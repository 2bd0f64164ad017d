import { GatewayError } from "../../../src/model/mod.ts";
import { localRunnerCodec, showBody, tagsBody, versionBody } from "../../../src/wire/local_runner/mod.ts";
import { assertEquals, assertMatch } from "../../helpers/assert.ts";

Deno.test("tagsBody() lists models in the tags shape with a stable 64-hex digest", () => {
  const body = tagsBody([
    { name: "openai/gpt-4o", modifiedAt: "2025-01-01T00:00:00Z" },
    { name: "fast-combo", modifiedAt: "2025-01-02T00:00:00Z" },
  ]);
  assertEquals(body.models.length, 2);
  const [first, second] = body.models;
  assertEquals({ ...first, digest: "" }, {
    name: "openai/gpt-4o",
    model: "openai/gpt-4o",
    modified_at: "2025-01-01T00:00:00Z",
    size: 0,
    digest: "",
    details: {
      parent_model: "",
      format: "gguf",
      family: "openai",
      families: ["openai"],
      parameter_size: "",
      quantization_level: "",
    },
  });
  assertMatch(String(first.digest), /^[0-9a-f]{64}$/);
  assertEquals(tagsBody([{ name: "openai/gpt-4o", modifiedAt: "x" }]).models[0].digest, first.digest);
  assertEquals((second.details as { family: string }).family, "gateway");
  assertEquals(second.digest === first.digest, false);
});

Deno.test("showBody() advertises completion plus the capabilities the model has", () => {
  assertEquals(showBody("openai/gpt-4o", { tools: true, vision: true, thinking: false }), {
    modelfile: "FROM openai/gpt-4o\n",
    parameters: "",
    template: "{{ .Prompt }}",
    details: {
      parent_model: "",
      format: "gguf",
      family: "openai",
      families: ["openai"],
      parameter_size: "",
      quantization_level: "",
    },
    model_info: {},
    capabilities: ["completion", "tools", "vision"],
    modified_at: "1970-01-01T00:00:00.000Z",
  });
  assertEquals(showBody("m", { thinking: true }, "2025-01-01T00:00:00Z").capabilities, [
    "completion",
    "thinking",
  ]);
  assertEquals(showBody("m", {}).capabilities, ["completion"]);
});

Deno.test("versionBody() echoes the version", () => {
  assertEquals(versionBody("0.9.0"), { version: "0.9.0" });
});

Deno.test("encodeError() uses Ollama's {error} envelope with the error's status", () => {
  assertEquals(localRunnerCodec.encodeError(new GatewayError(400, "invalid_request", "model: required")), {
    status: 400,
    body: { error: "model: required" },
  });
  assertEquals(
    localRunnerCodec.encodeError(new GatewayError(403, "model_not_allowed", "Model 'x/y' is not allowed")),
    { status: 403, body: { error: "Model 'x/y' is not allowed" } },
  );
});

Deno.test("localRunnerCodec declares its format and NDJSON framing", () => {
  assertEquals([localRunnerCodec.format, localRunnerCodec.framing], ["local_runner", "ndjson"]);
});

Deno.test("showBody() lists a non-chat model's kind alone (Ollama says embedding for embedders)", () => {
  assertEquals(showBody("m", { tools: true, kind: "embedding" }).capabilities, ["embedding"]);
  assertEquals(showBody("m", { tools: true, kind: "chat" }).capabilities, ["completion", "tools"]);
});
