/** OTLP/HTTP retry rules: which answers are retried and how long to wait. */
import { assertEquals } from "../helpers/assert.ts";
import { RETRYABLE_STATUSES, retryAfterMs, retryDelayMs } from "../../src/telemetry/export_retry.ts";

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

Deno.test("RETRYABLE_STATUSES are exactly 429, 502, 503 and 504", () => {
  assertEquals([...RETRYABLE_STATUSES].sort(), [429, 502, 503, 504]);
});

Deno.test("retryAfterMs() reads seconds and HTTP dates, and ignores what it cannot read", () => {
  assertEquals(retryAfterMs("3", 0), 3000);
  assertEquals(retryAfterMs(" 0 ", 0), 0);
  const now = Date.parse("Sat, 28 Nov 2026 06:00:00 GMT");
  assertEquals(retryAfterMs("Sat, 28 Nov 2026 06:00:05 GMT", now), 5000);
  assertEquals(retryAfterMs("Sat, 28 Nov 2026 05:00:00 GMT", now), 0, "a date in the past means now");
  assertEquals(retryAfterMs("soon", now), null);
  assertEquals(retryAfterMs(null, now), null);
});

Deno.test("retryDelayMs() doubles from the base, honours Retry-After within the cap, and stops after maxRetries", () => {
  assertEquals([1, 2, 3].map((n) => retryDelayMs(policy, n, null)), [100, 200, 400]);
  assertEquals(retryDelayMs(policy, 4, null), null);
  assertEquals(retryDelayMs(policy, 1, 700), 700);
  assertEquals(retryDelayMs(policy, 1, 3_600_000), 1000);
  assertEquals(retryDelayMs({ ...policy, maxRetries: 0 }, 1, null), null);
});
