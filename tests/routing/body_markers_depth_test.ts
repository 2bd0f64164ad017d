/** Regression (fuzz, upstream error_status): an upstream error body nested deep is classified, not a 500. */
import { assertEquals } from "../helpers/assert.ts";
import { hasRateLimitMarker } from "../../src/routing/mod.ts";

Deno.test("hasRateLimitMarker() reads a 30,000-deep array error body without overflowing the stack", () => {
  const body = "[".repeat(30_000) + "]".repeat(30_000);
  assertEquals(hasRateLimitMarker(body, 429), false);
  assertEquals(hasRateLimitMarker(body, 503), false);
});

Deno.test("hasRateLimitMarker() reads an error object too deep to re-serialise without throwing", () => {
  const body = '{"error":' + '{"a":'.repeat(30_000) + "1" + "}".repeat(30_000) + "}";
  assertEquals(hasRateLimitMarker(body, 503), false);
});
