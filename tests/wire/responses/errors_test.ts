import { assertEquals } from "../../helpers/assert.ts";
import { type ErrorKind, GatewayError } from "../../../src/model/mod.ts";
import { encodeError, responsesCodec } from "../../../src/wire/responses/mod.ts";

Deno.test("encodeError() writes the OpenAI error envelope with the status kept", () => {
  const encoded = encodeError(
    new GatewayError(400, "invalid_request", 'input[3].type: unknown item type "x"'),
  );
  assertEquals(encoded, {
    status: 400,
    body: {
      error: {
        message: 'input[3].type: unknown item type "x"',
        type: "invalid_request_error",
        param: null,
        code: "invalid_request",
      },
    },
  });
});

Deno.test("encodeError() maps every error kind to the OpenAI error type", () => {
  const cases: [ErrorKind, string][] = [
    ["authentication", "authentication_error"],
    ["permission", "permission_error"],
    ["model_not_allowed", "model_not_allowed"],
    ["not_found", "not_found_error"],
    ["rate_limit", "rate_limit_error"],
    ["budget_exceeded", "budget_exceeded"],
    ["upstream", "server_error"],
    ["overloaded", "server_error"],
    ["unavailable", "server_error"],
    ["timeout", "server_error"],
    ["internal", "server_error"],
    ["payload_too_large", "invalid_request_error"],
  ];
  for (const [kind, type] of cases) {
    const body = encodeError(new GatewayError(500, kind, "m")).body as { error: { type: string } };
    assertEquals(body.error.type, type, kind);
  }
});

Deno.test("responsesCodec speaks the responses format over SSE", () => {
  assertEquals([responsesCodec.format, responsesCodec.framing], ["responses", "sse"]);
});
