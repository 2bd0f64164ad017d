import { GatewayError } from "../../../src/model/mod.ts";
import type { ErrorKind } from "../../../src/model/mod.ts";
import { messagesCodec } from "../../../src/wire/messages/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("encodeError() wraps errors in the messages envelope with the matching error type", () => {
  const cases: [number, ErrorKind, string][] = [
    [400, "invalid_request", "invalid_request_error"],
    [401, "authentication", "authentication_error"],
    [403, "permission", "permission_error"],
    [403, "model_not_allowed", "model_not_allowed"],
    [404, "not_found", "not_found_error"],
    [413, "payload_too_large", "request_too_large"],
    [429, "rate_limit", "rate_limit_error"],
    [429, "budget_exceeded", "budget_exceeded"],
    [529, "overloaded", "overloaded_error"],
    [503, "unavailable", "overloaded_error"],
    [502, "upstream", "api_error"],
    [504, "timeout", "api_error"],
    [500, "internal", "api_error"],
  ];
  for (const [status, kind, type] of cases) {
    const encoded = messagesCodec.encodeError(new GatewayError(status, kind, `failed: ${kind}`));
    assertEquals(encoded, { status, body: { type: "error", error: { type, message: `failed: ${kind}` } } });
  }
});
