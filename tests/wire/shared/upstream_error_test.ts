import { assertEquals } from "../../helpers/assert.ts";
import { openAiTypeAndCode, readUpstreamError } from "../../../src/wire/shared/mod.ts";

Deno.test("readUpstreamError() reads each provider's error shape, and nothing from what is none", () => {
  assertEquals(
    readUpstreamError(
      '{"error":{"message":"This model\'s maximum context length is 8192 tokens","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    ),
    {
      message: "This model's maximum context length is 8192 tokens",
      type: "invalid_request_error",
      code: "context_length_exceeded",
      param: "messages",
    },
  );
  assertEquals(
    readUpstreamError('{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}'),
    { message: "model: claude-x", type: "not_found_error" },
  );
  assertEquals(
    readUpstreamError('[{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}]'),
    { message: "models/x is not found", type: "NOT_FOUND" },
  );
  assertEquals(readUpstreamError('{"error":"model \\"llama9\\" not found, try pulling it first"}'), {
    message: 'model "llama9" not found, try pulling it first',
  });
  assertEquals(readUpstreamError('{"detail":"Not Found"}'), { message: "Not Found" });
  for (const text of ["", "Bad Gateway", "[]", '{"error":{}}', "null", '{"ok":false}']) {
    assertEquals(readUpstreamError(text), null, text);
  }
});

Deno.test("openAiTypeAndCode() keeps snake-case upstream names and fills the rest with the gateway's", () => {
  const fallback = { type: "api_error", code: "upstream" };
  assertEquals(
    openAiTypeAndCode({ message: "m", type: "invalid_request_error", code: "model_not_found" }, fallback),
    {
      type: "invalid_request_error",
      code: "model_not_found",
      param: null,
    },
  );
  assertEquals(openAiTypeAndCode({ message: "m", type: "NOT_FOUND" }, fallback), {
    type: "api_error",
    code: "upstream",
    param: null,
  });
  assertEquals(openAiTypeAndCode(undefined, fallback), { ...fallback, param: null });
});
