import { assertEquals } from "../../helpers/assert.ts";
import { type ErrorKind, GatewayError } from "../../../src/model/mod.ts";
import { generateContentCodec as codec } from "../../../src/wire/generate_content/mod.ts";

Deno.test("encodeError() wraps errors in Gemini's envelope with the google.rpc status for the kind", () => {
  const cases: [number, ErrorKind, string][] = [
    [400, "invalid_request", "INVALID_ARGUMENT"],
    [401, "authentication", "UNAUTHENTICATED"],
    [403, "permission", "PERMISSION_DENIED"],
    [404, "not_found", "NOT_FOUND"],
    [429, "rate_limit", "RESOURCE_EXHAUSTED"],
    [429, "budget_exceeded", "RESOURCE_EXHAUSTED"],
    [503, "unavailable", "UNAVAILABLE"],
    [529, "overloaded", "UNAVAILABLE"],
    [504, "timeout", "DEADLINE_EXCEEDED"],
    [502, "upstream", "INTERNAL"],
    [500, "internal", "INTERNAL"],
  ];
  for (const [status, kind, rpc] of cases) {
    assertEquals(codec.encodeError(new GatewayError(status, kind, "why")), {
      status,
      body: { error: { code: status, message: "why", status: rpc } },
    });
  }
});

Deno.test("encodeError() marks model_not_allowed beyond PERMISSION_DENIED", () => {
  const encoded = codec.encodeError(new GatewayError(403, "model_not_allowed", "Model 'x/y' is not allowed"));
  assertEquals(encoded, {
    status: 403,
    body: {
      error: {
        code: 403,
        message: "Model 'x/y' is not allowed",
        status: "PERMISSION_DENIED",
        details: [{
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "MODEL_NOT_ALLOWED",
          domain: "gateway",
        }],
        type: "model_not_allowed",
      },
    },
  });
});
