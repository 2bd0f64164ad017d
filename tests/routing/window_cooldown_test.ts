import { assert, assertEquals } from "../helpers/assert.ts";
import {
  applyFailure,
  classifyUpstreamFailure,
  emptyRoutingState,
  RATE_LIMIT_COOLDOWN_MS,
  RESET_SPREAD_MAX_MS,
  resetSpreadMs,
  WINDOW_RESET_CAP_MS,
} from "../../src/routing/mod.ts";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const lookup = (headers: Record<string, string>) => (name: string) => new Headers(headers).get(name);

function rejected5h(resetSeconds: number) {
  return lookup({
    "anthropic-ratelimit-unified-status": "rejected",
    "anthropic-ratelimit-unified-5h-status": "rejected",
    "anthropic-ratelimit-unified-5h-reset": String(resetSeconds),
  });
}

Deno.test("classifyUpstreamFailure() puts a rejected unified window's reset on a 429", () => {
  const reset = Math.floor(NOW / 1000) + 7200;
  const verdict = classifyUpstreamFailure({
    kind: "status",
    status: 429,
    bodyText: "{}",
    now: NOW,
    headers: rejected5h(reset),
  });
  assertEquals(verdict, {
    fallback: true,
    cooldownKind: "rate_limit",
    retryAfterMs: null,
    resetAtMs: reset * 1000,
  });
});

Deno.test("classifyUpstreamFailure() takes the later of header and body resets; none without now", () => {
  const body = JSON.stringify({ error: { type: "usage_limit_reached", resets_in_seconds: 9000 } });
  const verdict = classifyUpstreamFailure({
    kind: "status",
    status: 429,
    bodyText: body,
    now: NOW,
    headers: rejected5h(Math.floor(NOW / 1000) + 60),
  });
  assertEquals(verdict.resetAtMs, NOW + 9_000_000);
  assertEquals(classifyUpstreamFailure({ kind: "status", status: 429, bodyText: body }).resetAtMs, undefined);
});

Deno.test("classifyUpstreamFailure() ignores window resets on statuses that are no rate limit", () => {
  const verdict = classifyUpstreamFailure({
    kind: "status",
    status: 401,
    bodyText: "{}",
    now: NOW,
    headers: rejected5h(Math.floor(NOW / 1000) + 7200),
  });
  assertEquals(verdict.resetAtMs, undefined);
});

Deno.test("applyFailure() cools until the window's reset plus the account's spread, not 60 s", () => {
  const resetAtMs = NOW + 2 * 3_600_000;
  const state = applyFailure(
    emptyRoutingState(),
    "acct",
    { fallback: true, cooldownKind: "rate_limit", retryAfterMs: null, resetAtMs },
    NOW,
  );
  assertEquals(state.cooldowns.acct.untilMs, resetAtMs + resetSpreadMs("acct"));
  assertEquals(state.cooldowns.acct.kind, "rate_limit");
});

Deno.test("applyFailure() honours a later Retry-After over an earlier reset and caps far resets", () => {
  const later = applyFailure(
    emptyRoutingState(),
    "a",
    { fallback: true, cooldownKind: "rate_limit", retryAfterMs: 600_000, resetAtMs: NOW + 10_000 },
    NOW,
  );
  assertEquals(later.cooldowns.a.untilMs, NOW + 600_000);
  const far = applyFailure(
    emptyRoutingState(),
    "a",
    { fallback: true, cooldownKind: "rate_limit", retryAfterMs: null, resetAtMs: NOW + 365 * 86_400_000 },
    NOW,
  );
  assertEquals(far.cooldowns.a.untilMs, NOW + WINDOW_RESET_CAP_MS);
  const past = applyFailure(
    emptyRoutingState(),
    "a",
    { fallback: true, cooldownKind: "rate_limit", retryAfterMs: null, resetAtMs: NOW - 1 },
    NOW,
  );
  assertEquals(past.cooldowns.a.untilMs, NOW + RATE_LIMIT_COOLDOWN_MS);
});

Deno.test("resetSpreadMs() stays within 1–30 s and differs between accounts", () => {
  const seen = new Set<number>();
  for (let i = 0; i < 200; i++) {
    const spread = resetSpreadMs(`account-${i}`);
    assert(spread >= 1_000 && spread <= RESET_SPREAD_MAX_MS, String(spread));
    seen.add(spread);
  }
  assert(seen.size > 150, `only ${seen.size} distinct spreads`);
  assertEquals(resetSpreadMs("x"), resetSpreadMs("x"));
});
