import { assertEquals } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import type { ErrorKind } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";

Deno.test("encodeError() writes the OpenAI envelope with the type for each kind", () => {
  const cases: [number, ErrorKind, string][] = [
    [400, "invalid_request", "invalid_request_error"],
    [401, "authentication", "authentication_error"],
    [403, "permission", "permission_error"],
    [403, "model_not_allowed", "model_not_allowed"],
    [404, "not_found", "not_found_error"],
    [413, "payload_too_large", "invalid_request_error"],
    [429, "rate_limit", "rate_limit_error"],
    [429, "budget_exceeded", "budget_exceeded"],
    [502, "upstream", "api_error"],
    [503, "unavailable", "api_error"],
    [504, "timeout", "api_error"],
    [500, "internal", "server_error"],
  ];
  for (const [status, kind, type] of cases) {
    const encoded = chatCompletionsCodec.encodeError(new GatewayError(status, kind, `failed: ${kind}`));
    assertEquals(encoded, {
      status,
      body: { error: { message: `failed: ${kind}`, type, param: null, code: kind } },
    });
  }
});

Deno.test("encodeError() sends a spec-fixed body as is", () => {
  const error = new GatewayError(401, "authentication", "Invalid API key", {
    fixedBody: { detail: "Invalid API key" },
  });
  assertEquals(chatCompletionsCodec.encodeError(error), { status: 401, body: { detail: "Invalid API key" } });
});
