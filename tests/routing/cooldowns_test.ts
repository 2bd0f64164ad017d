import { assertEquals } from "../helpers/assert.ts";
import {
  activeCooldowns,
  applyFailure,
  applySuccess,
  AUTH_ERROR_COOLDOWN_MS,
  BODY_RATE_LIMIT_CAP_MS,
  classifyUpstreamFailure,
  clearCooldowns,
  emptyRoutingState,
  type FailureClassification,
  isCooling,
  NETWORK_ERROR_COOLDOWN_MS,
  PAYMENT_ERROR_COOLDOWN_MS,
  RATE_LIMIT_COOLDOWN_MS,
  restoreCooldowns,
  type RoutingState,
  SERVER_ERROR_COOLDOWN_MS,
} from "../../src/routing/mod.ts";

const NOW = 1_700_000_000_000;

function http(status: number, bodyText = "", retryAfterHeader?: string): FailureClassification {
  return classifyUpstreamFailure({ kind: "status", status, bodyText, retryAfterHeader });
}

const BODY_LIMIT = http(400, '{"error":"rate limit"}');

function untilOf(state: RoutingState, id: string): number {
  return state.cooldowns[id].untilMs - NOW;
}

Deno.test("cooldown durations are 60 s, 30 s, 300 s, 300 s and 15 s as the spec's Limits say", () => {
  assertEquals(RATE_LIMIT_COOLDOWN_MS, 60_000);
  assertEquals(SERVER_ERROR_COOLDOWN_MS, 30_000);
  assertEquals(AUTH_ERROR_COOLDOWN_MS, 300_000);
  assertEquals(PAYMENT_ERROR_COOLDOWN_MS, 300_000);
  assertEquals(NETWORK_ERROR_COOLDOWN_MS, 15_000);
  const s = emptyRoutingState();
  assertEquals(untilOf(applyFailure(s, "a", http(429), NOW), "a"), 60_000);
  assertEquals(untilOf(applyFailure(s, "a", http(500), NOW), "a"), 30_000);
  assertEquals(untilOf(applyFailure(s, "a", http(401), NOW), "a"), 300_000);
  assertEquals(untilOf(applyFailure(s, "a", http(403), NOW), "a"), 300_000);
  assertEquals(untilOf(applyFailure(s, "a", http(402), NOW), "a"), 300_000);
  const network = classifyUpstreamFailure({ kind: "network", reason: "timeout" });
  assertEquals(untilOf(applyFailure(s, "a", network, NOW), "a"), 15_000);
});

Deno.test("applyFailure() leaves the state untouched for a non-fallback 400", () => {
  const s = emptyRoutingState();
  assertEquals(applyFailure(s, "a", http(400, "bad field"), NOW) === s, true);
});

Deno.test("applyFailure() doubles the body-rate-limit backoff 2, 4, 8 … and caps it at 300 s", () => {
  let s = emptyRoutingState();
  const seen: number[] = [];
  for (let i = 0; i < 10; i++) {
    s = applyFailure(s, "a", BODY_LIMIT, NOW);
    seen.push(untilOf(s, "a") / 1000);
    // Let the cooldown lapse so the next hit is measured from a fresh start.
    s = { ...s, cooldowns: { a: { ...s.cooldowns.a, untilMs: NOW } } };
  }
  assertEquals(seen, [2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
  assertEquals(BODY_RATE_LIMIT_CAP_MS, 300_000);
});

Deno.test("applySuccess() resets the backoff so the next body rate limit starts at 2 s again", () => {
  let s = emptyRoutingState();
  s = applyFailure(s, "a", BODY_LIMIT, NOW);
  s = applyFailure(s, "a", BODY_LIMIT, NOW + 3000);
  assertEquals(s.cooldowns.a.backoffLevel, 2);
  s = applySuccess(s, "a");
  assertEquals(isCooling(s, "a", NOW), false);
  s = applyFailure(s, "a", BODY_LIMIT, NOW);
  assertEquals(untilOf(s, "a"), 2000);
});

Deno.test("applyFailure() keeps the backoff level per account", () => {
  let s = emptyRoutingState();
  s = applyFailure(s, "a", BODY_LIMIT, NOW);
  s = applyFailure(s, "a", BODY_LIMIT, NOW);
  s = applyFailure(s, "b", BODY_LIMIT, NOW);
  assertEquals(s.cooldowns.a.backoffLevel, 2);
  assertEquals(untilOf(s, "b"), 2000);
});

Deno.test("applyFailure() honours an upstream Retry-After on a 429 but not on a 401", () => {
  const s = emptyRoutingState();
  assertEquals(untilOf(applyFailure(s, "a", http(429, "", "5"), NOW), "a"), 5000);
  assertEquals(untilOf(applyFailure(s, "a", http(429, "", "99999"), NOW), "a"), 1_800_000);
  assertEquals(untilOf(applyFailure(s, "a", http(401, "", "5"), NOW), "a"), 300_000);
});

Deno.test("applyFailure() never shortens a longer cooldown that is still running", () => {
  let s = applyFailure(emptyRoutingState(), "a", http(401), NOW);
  s = applyFailure(s, "a", classifyUpstreamFailure({ kind: "network", reason: "connection" }), NOW + 1000);
  assertEquals(untilOf(s, "a"), 300_000);
});

Deno.test("applyFailure() and applySuccess() return new states and leave the input unchanged", () => {
  const s0 = emptyRoutingState();
  const s1 = applyFailure(s0, "a", http(429), NOW);
  assertEquals(s0.cooldowns, {});
  const s2 = applySuccess(s1, "a");
  assertEquals(Object.keys(s1.cooldowns), ["a"]);
  assertEquals(s2.cooldowns, {});
  assertEquals(applySuccess(s2, "a") === s2, true);
});

Deno.test("activeCooldowns() lists unexpired cooldowns soonest first with whole seconds left", () => {
  let s = emptyRoutingState();
  s = applyFailure(s, "auth", http(401), NOW);
  s = applyFailure(s, "net", classifyUpstreamFailure({ kind: "network", reason: "timeout" }), NOW);
  s = applyFailure(s, "old", http(500), NOW - 60_000);
  assertEquals(activeCooldowns(s, NOW + 500), [
    { accountId: "net", untilMs: NOW + 15_000, kind: "network", remainingSeconds: 15 },
    { accountId: "auth", untilMs: NOW + 300_000, kind: "auth", remainingSeconds: 300 },
  ]);
});

Deno.test("clearCooldowns() makes every account available and forgets backoff levels", () => {
  let s = applyFailure(emptyRoutingState(), "a", http(429), NOW);
  s = clearCooldowns(s);
  assertEquals(isCooling(s, "a", NOW), false);
  assertEquals(activeCooldowns(s, NOW), []);
});

Deno.test("restoreCooldowns() loads persisted instants and skips expired ones", () => {
  const s = restoreCooldowns(emptyRoutingState(), [
    { accountId: "a", untilMs: NOW + 10_000 },
    { accountId: "b", untilMs: NOW - 1 },
  ], NOW);
  assertEquals(isCooling(s, "a", NOW), true);
  assertEquals(Object.keys(s.cooldowns), ["a"]);
  assertEquals(s.cooldowns.a.kind, null);
});
