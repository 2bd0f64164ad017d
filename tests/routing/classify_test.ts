import { assertEquals } from "../helpers/assert.ts";
import { classifyUpstreamFailure, hasRateLimitMarker, parseRetryAfter } from "../../src/routing/mod.ts";

function status(code: number, bodyText = "", retryAfterHeader?: string) {
  return classifyUpstreamFailure({ kind: "status", status: code, bodyText, retryAfterHeader });
}

Deno.test("classifyUpstreamFailure() falls back on a timeout and a connection error with a network cooldown", () => {
  for (const reason of ["timeout", "connection"] as const) {
    assertEquals(classifyUpstreamFailure({ kind: "network", reason }), {
      fallback: true,
      cooldownKind: "network",
      retryAfterMs: null,
    });
  }
});

Deno.test("classifyUpstreamFailure() maps each status row of the spec table", () => {
  const rows: [number, boolean, string | null][] = [
    [429, true, "rate_limit"],
    [500, true, "server"],
    [502, true, "server"],
    [503, true, "server"],
    [504, true, "server"],
    [401, true, "auth"],
    [403, true, "auth"],
    [402, true, "payment"],
    [400, false, null],
    [404, false, null],
    [409, false, null],
    [413, false, null],
    [422, false, null],
  ];
  for (const [code, fallback, kind] of rows) {
    const verdict = status(code, '{"error":{"message":"something broke"}}');
    assertEquals([code, verdict.fallback, verdict.cooldownKind], [code, fallback, kind]);
  }
});

Deno.test("classifyUpstreamFailure() turns a 400 whose object body says rate limit into a body rate limit", () => {
  const verdict = status(400, '{"error":{"type":"rate_limit_error","message":"slow down"}}');
  assertEquals(verdict, { fallback: true, cooldownKind: "body_rate_limit", retryAfterMs: null });
});

Deno.test("classifyUpstreamFailure() detects markers in list, string and plain-text bodies", () => {
  assertEquals(
    status(400, '[{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"Quota"}}]').cooldownKind,
    "body_rate_limit",
  );
  assertEquals(status(400, '"Too Many Requests"').cooldownKind, "body_rate_limit");
  assertEquals(status(400, "The model is overloaded, try later").cooldownKind, "body_rate_limit");
  assertEquals(status(404, '{"message":"quota_exceeded for this project"}').cooldownKind, "body_rate_limit");
  assertEquals(status(400, "12345").cooldownKind, null);
});

Deno.test("classifyUpstreamFailure() detects every spec marker case-insensitively", () => {
  const markers = [
    "Rate Limit reached",
    "rate_limit_exceeded",
    "TOO MANY REQUESTS",
    "Quota Exceeded",
    "quota_exceeded",
    "no capacity left",
    "Overloaded",
    "Resource Exhausted",
    "RESOURCE_EXHAUSTED",
  ];
  for (const marker of markers) {
    assertEquals([marker, status(400, JSON.stringify({ error: marker })).cooldownKind], [
      marker,
      "body_rate_limit",
    ]);
  }
});

Deno.test("classifyUpstreamFailure() treats a 200 carrying an error body with a marker as a rate limit", () => {
  const verdict = status(200, '{"error":{"message":"Rate limit exceeded for model"}}');
  assertEquals(verdict.fallback, true);
  assertEquals(verdict.cooldownKind, "body_rate_limit");
  assertEquals(status(200, 'data: {"error":{"message":"overloaded"}}\n\n').cooldownKind, "body_rate_limit");
});

Deno.test("classifyUpstreamFailure() ignores a marker in the content of a successful 200 answer", () => {
  const body = '{"choices":[{"message":{"content":"Our rate limit is 10 per minute; capacity is fine."}}]}';
  assertEquals(status(200, body), { fallback: false, cooldownKind: null, retryAfterMs: null });
});

Deno.test("classifyUpstreamFailure() lets a body marker win over a 5xx or 401 status", () => {
  assertEquals(status(503, '{"error":{"message":"Model overloaded"}}').cooldownKind, "body_rate_limit");
  assertEquals(status(401, '{"error":"quota exceeded"}').cooldownKind, "body_rate_limit");
});

Deno.test("classifyUpstreamFailure() reads Retry-After seconds on fallback-eligible errors only", () => {
  assertEquals(status(429, "", "7").retryAfterMs, 7000);
  assertEquals(status(400, "bad request", "7").retryAfterMs, null);
});

Deno.test("parseRetryAfter() reads seconds, HTTP dates with a clock, and rejects junk", () => {
  assertEquals(parseRetryAfter("12"), 12_000);
  assertEquals(parseRetryAfter("0"), 1_000);
  assertEquals(parseRetryAfter(" 1.5 "), 1_500);
  assertEquals(parseRetryAfter("soon"), null);
  assertEquals(parseRetryAfter(undefined), null);
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  assertEquals(parseRetryAfter("Wed, 01 Jan 2025 12:00:30 GMT", now), 30_000);
  assertEquals(parseRetryAfter("Wed, 01 Jan 2025 12:00:30 GMT"), null);
});

Deno.test("hasRateLimitMarker() scans an error member of an object but a whole body without one", () => {
  assertEquals(hasRateLimitMarker('{"detail":"Too many requests"}', 400), true);
  assertEquals(hasRateLimitMarker('{"id":"x","note":"capacity"}', 200), false);
  assertEquals(hasRateLimitMarker("", 429), false);
});
