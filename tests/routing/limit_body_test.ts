import { assertEquals } from "../helpers/assert.ts";
import { resetFromErrorBody } from "../../src/routing/mod.ts";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

Deno.test("resetFromErrorBody() reads Codex usage_limit_reached resets_at and resets_in_seconds", () => {
  const at = Math.floor(NOW / 1000) + 7200;
  const body = { error: { type: "usage_limit_reached", message: "limit", resets_at: at } };
  assertEquals(resetFromErrorBody(JSON.stringify(body), NOW), at * 1000);
  const inSeconds = { error: { type: "usage_limit_reached", resets_in_seconds: 90 } };
  assertEquals(resetFromErrorBody(JSON.stringify(inSeconds), NOW), NOW + 90_000);
});

Deno.test("resetFromErrorBody() reads Google RetryInfo retryDelay, also in an array envelope", () => {
  const error = {
    code: 429,
    status: "RESOURCE_EXHAUSTED",
    details: [
      { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [] },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "34s" },
    ],
  };
  assertEquals(resetFromErrorBody(JSON.stringify({ error }), NOW), NOW + 34_000);
  assertEquals(resetFromErrorBody(JSON.stringify([{ error }]), NOW), NOW + 34_000);
  const proto = {
    error: { details: [{ "@type": "google.rpc.RetryInfo", retryDelay: { seconds: 2, nanos: 5e8 } }] },
  };
  assertEquals(resetFromErrorBody(JSON.stringify(proto), NOW), NOW + 2_500);
});

Deno.test("resetFromErrorBody() reads Cloud Code quotaResetDelay/TimeStamp and keeps the latest", () => {
  const body = {
    error: {
      details: [
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "10s" },
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          metadata: { quotaResetDelay: "1h0m0s", quotaResetTimeStamp: "2026-11-25T14:00:00Z" },
        },
      ],
    },
  };
  assertEquals(resetFromErrorBody(JSON.stringify(body), NOW), NOW + 2 * 3_600_000);
});

Deno.test("resetFromErrorBody() is null for bodies that name no future reset", () => {
  assertEquals(resetFromErrorBody("", NOW), null);
  assertEquals(resetFromErrorBody("rate limited, retry later", NOW), null);
  assertEquals(resetFromErrorBody(JSON.stringify({ error: { message: "slow down" } }), NOW), null);
  assertEquals(resetFromErrorBody(JSON.stringify({ error: { resets_at: 1 } }), NOW), null);
  assertEquals(resetFromErrorBody(JSON.stringify({ error: { resets_in_seconds: "soon" } }), NOW), null);
  assertEquals(resetFromErrorBody("[".repeat(100_000), NOW), null);
});
