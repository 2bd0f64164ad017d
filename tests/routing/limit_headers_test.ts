import { assertEquals } from "../helpers/assert.ts";
import { exhaustedUntil, type LimitWindow, readLimitHeaders } from "../../src/routing/mod.ts";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const lookup = (headers: Record<string, string>) => (name: string) => new Headers(headers).get(name);

function byId(windows: LimitWindow[]): Record<string, LimitWindow> {
  return Object.fromEntries(windows.map((w) => [w.id, w]));
}

Deno.test("readLimitHeaders() reads OpenAI x-ratelimit-* requests and tokens windows", () => {
  const w = byId(readLimitHeaders(
    lookup({
      "x-ratelimit-limit-requests": "60",
      "x-ratelimit-remaining-requests": "15",
      "x-ratelimit-reset-requests": "6m0s",
      "x-ratelimit-limit-tokens": "150000",
      "x-ratelimit-remaining-tokens": "149984",
      "x-ratelimit-reset-tokens": "6ms",
    }),
    NOW,
  ));
  assertEquals(w.requests, {
    id: "requests",
    unit: "requests",
    limit: 60,
    remaining: 15,
    usedFraction: 0.75,
    resetAtMs: NOW + 360_000,
    windowMs: null,
    rejected: false,
  });
  assertEquals(w.tokens.unit, "tokens");
  assertEquals(w.tokens.resetAtMs, NOW + 6);
});

Deno.test("readLimitHeaders() reads suffix-less x-ratelimit-* with an epoch-ms reset (OpenRouter style)", () => {
  const [w] = readLimitHeaders(
    lookup({
      "X-RateLimit-Limit": "20",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(NOW + 9000),
    }),
    NOW,
  );
  assertEquals([w.id, w.remaining, w.usedFraction, w.resetAtMs], ["requests", 0, 1, NOW + 9000]);
});

Deno.test("readLimitHeaders() reads every anthropic-ratelimit-* bucket with RFC 3339 resets", () => {
  const headers: Record<string, string> = {};
  for (const bucket of ["requests", "tokens", "input-tokens", "output-tokens"]) {
    headers[`anthropic-ratelimit-${bucket}-limit`] = "1000";
    headers[`anthropic-ratelimit-${bucket}-remaining`] = "250";
    headers[`anthropic-ratelimit-${bucket}-reset`] = "2026-11-25T12:01:00Z";
  }
  const windows = readLimitHeaders(lookup(headers), NOW);
  assertEquals(windows.map((w) => w.id), ["requests", "tokens", "input_tokens", "output_tokens"]);
  for (const w of windows) {
    assertEquals([w.usedFraction, w.resetAtMs], [0.75, NOW + 60_000]);
  }
});

Deno.test("readLimitHeaders() reads unified subscription 5h and 7d windows with utilization and status", () => {
  const reset5h = Math.floor(NOW / 1000) + 3600;
  const reset7d = Math.floor(NOW / 1000) + 3 * 86400;
  const w = byId(readLimitHeaders(
    lookup({
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-5h-status": "rejected",
      "anthropic-ratelimit-unified-5h-utilization": "1.02",
      "anthropic-ratelimit-unified-5h-reset": String(reset5h),
      "anthropic-ratelimit-unified-7d-status": "allowed_warning",
      "anthropic-ratelimit-unified-7d-utilization": "0.81",
      "anthropic-ratelimit-unified-7d-reset": String(reset7d),
    }),
    NOW,
  ));
  assertEquals([w["5h"].rejected, w["5h"].usedFraction, w["5h"].resetAtMs], [true, 1, reset5h * 1000]);
  assertEquals(w["5h"].windowMs, 5 * 3_600_000);
  assertEquals([w["7d"].rejected, w["7d"].usedFraction, w["7d"].resetAtMs], [false, 0.81, reset7d * 1000]);
  assertEquals(w.unified, undefined);
});

Deno.test("readLimitHeaders() keeps an overall unified rejection that names no window", () => {
  const reset = Math.floor(NOW / 1000) + 600;
  const windows = readLimitHeaders(
    lookup({
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(reset),
    }),
    NOW,
  );
  assertEquals(windows.map((w) => [w.id, w.rejected, w.resetAtMs]), [["unified", true, reset * 1000]]);
  assertEquals(exhaustedUntil(windows, NOW), reset * 1000);
});

Deno.test("readLimitHeaders() reads x-codex primary/secondary windows (reset-at and reset-after-seconds)", () => {
  const w = byId(readLimitHeaders(
    lookup({
      "x-codex-primary-used-percent": "100",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-at": String(Math.floor(NOW / 1000) + 1200),
      "x-codex-secondary-used-percent": "42.5",
      "x-codex-secondary-window-minutes": "10080",
      "x-codex-secondary-reset-after-seconds": "86400",
    }),
    NOW,
  ));
  assertEquals([w.primary.rejected, w.primary.usedFraction, w.primary.windowMs], [true, 1, 300 * 60_000]);
  assertEquals(w.primary.resetAtMs, NOW + 1_200_000);
  assertEquals([w.secondary.rejected, w.secondary.usedFraction], [false, 0.425]);
  assertEquals(w.secondary.resetAtMs, NOW + 86_400_000);
});

Deno.test("readLimitHeaders() of an answer without limit headers is empty; garbage values are ignored", () => {
  assertEquals(readLimitHeaders(lookup({ "content-type": "application/json" }), NOW), []);
  assertEquals(readLimitHeaders(lookup({ "x-ratelimit-remaining-requests": "lots" }), NOW), []);
  const [w] = readLimitHeaders(
    lookup({ "x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "whenever" }),
    NOW,
  );
  assertEquals([w.remaining, w.limit, w.usedFraction, w.resetAtMs], [3, null, null, null]);
});

Deno.test("exhaustedUntil() is the latest reset of rejected or empty windows; 7d_oi alone bars no account", () => {
  const win = (id: string, rejected: boolean, resetAtMs: number | null, remaining: number | null = null) => ({
    id,
    unit: "percent" as const,
    limit: null,
    remaining,
    usedFraction: null,
    resetAtMs,
    windowMs: null,
    rejected,
  });
  assertEquals(exhaustedUntil([win("5h", true, NOW + 10), win("7d", true, NOW + 99)], NOW), NOW + 99);
  assertEquals(exhaustedUntil([win("5h", true, NOW + 10), win("7d", false, NOW + 99)], NOW), NOW + 10);
  assertEquals(exhaustedUntil([win("requests", false, NOW + 5, 0)], NOW), NOW + 5);
  assertEquals(exhaustedUntil([win("requests", false, NOW + 5, 1)], NOW), null);
  assertEquals(exhaustedUntil([win("7d_oi", true, NOW + 50)], NOW), null);
  assertEquals(exhaustedUntil([win("5h", true, NOW - 1)], NOW), null);
});
