import { periodStatus, periodWindow } from "../../src/accounting/mod.ts";
import {
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhookSignature,
} from "../../src/accounting/webhook_signature.ts";
import { budgetEvent, type DeliveryOutcome, WebhookSender } from "../../src/gateway/budget_webhook.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const NOW = Date.parse("2026-11-28T05:30:00Z");
const SECRET = "whsec-test-1";

function event(id: string) {
  const period = { kind: "week" } as const;
  const window = periodWindow(period, NOW, "UTC");
  const status = periodStatus({ period, limit: 10, warnPct: 80 }, 8.5, window, NOW);
  return budgetEvent({ id, budgetId: 3, scope: "group", scopeName: "ops", warnPct: 80, status }, NOW);
}

/** A loopback receiver that verifies each delivery and answers with the next status of `statuses`. */
function receiver(statuses: number[]) {
  const seen: { valid: string | null; body: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.text();
    const valid = await verifyWebhookSignature(
      SECRET,
      body,
      request.headers.get(SIGNATURE_HEADER),
      Date.now(),
    );
    seen.push({ valid, body, headers: request.headers });
    return new Response(null, { status: statuses[Math.min(seen.length - 1, statuses.length - 1)] });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/hooks/budget`, seen, close: () => server.shutdown() };
}

function sender(outcomes: DeliveryOutcome[], sleeps: number[], maxAttempts = 4) {
  return new WebhookSender({
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    maxAttempts,
    onOutcome: (o) => outcomes.push(o),
  });
}

Deno.test("a budget webhook reaches a loopback receiver with a valid signature, after retries on 503", async () => {
  const hook = receiver([503, 503, 200]);
  const outcomes: DeliveryOutcome[] = [];
  const sleeps: number[] = [];
  const webhooks = sender(outcomes, sleeps);
  try {
    webhooks.enqueue({ url: hook.url, secret: SECRET, event: event("evt-1") });
    assertEquals(hook.seen.length, 0, "enqueue returns before anything is sent");
    await webhooks.idle();
    assertEquals(hook.seen.map((s) => s.valid), [null, null, null], "every attempt is validly signed");
    assertEquals(sleeps, [1000, 2000], "exponential backoff between attempts");
    assertEquals(outcomes, [{ id: "evt-1", url: hook.url, delivered: true, attempts: 3, lastError: null }]);
    const body = JSON.parse(hook.seen[2].body);
    assertEquals(body.type, "budget.warning");
    assertEquals(body.budget, {
      id: 3,
      scope: "group",
      scope_name: "ops",
      period: "week",
      limit: 10,
      warn_pct: 80,
    });
    assertEquals([body.spent, body.percentage, body.window_start, body.resets_at], [
      8.5,
      85,
      "2026-11-23T00:00:00.000Z",
      "2026-11-30T00:00:00.000Z",
    ]);
    assertEquals(hook.seen[0].headers.get("x-gateway-event"), "budget.warning");
    assertEquals(hook.seen[0].headers.get("x-gateway-delivery"), "evt-1");
  } finally {
    await hook.close();
  }
});

Deno.test("a budget webhook gives up after maxAttempts, and at once on a 4xx that is not worth retrying", async () => {
  const failing = receiver([500]);
  const refusing = receiver([400]);
  const outcomes: DeliveryOutcome[] = [];
  const sleeps: number[] = [];
  const webhooks = sender(outcomes, sleeps, 3);
  try {
    webhooks.enqueue({ url: failing.url, secret: SECRET, event: event("evt-2") });
    webhooks.enqueue({ url: refusing.url, secret: SECRET, event: event("evt-3") });
    await webhooks.idle();
    assertEquals(failing.seen.length, 3);
    assertEquals(refusing.seen.length, 1);
    assertEquals(sleeps, [1000, 2000]);
    assertEquals(outcomes.map((o) => [o.id, o.delivered, o.attempts, o.lastError]), [
      ["evt-2", false, 3, "HTTP 500"],
      ["evt-3", false, 1, "HTTP 400"],
    ]);
  } finally {
    await failing.close();
    await refusing.close();
  }
});

Deno.test("a budget webhook to a receiver that is down is retried, then given up on", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const outcomes: DeliveryOutcome[] = [];
  const sleeps: number[] = [];
  const webhooks = sender(outcomes, sleeps, 3);
  webhooks.enqueue({ url: `http://127.0.0.1:${port}/`, secret: SECRET, event: event("evt-4") });
  await webhooks.idle();
  assertEquals([outcomes[0].delivered, outcomes[0].attempts, sleeps], [false, 3, [1000, 2000]]);
  assert(outcomes[0].lastError !== null);
});

Deno.test("verifyWebhookSignature() refuses a changed body, another secret, a stale timestamp, no header", async () => {
  const body = '{"a":1}';
  const ts = Math.floor(NOW / 1000);
  const header = await signWebhook(SECRET, body, ts);
  assert(/^t=\d+,v1=[0-9a-f]{64}$/.test(header));
  assertEquals(await verifyWebhookSignature(SECRET, body, header, NOW), null);
  assertEquals(await verifyWebhookSignature(SECRET, '{"a":2}', header, NOW), "signature mismatch");
  assertEquals(await verifyWebhookSignature("other", body, header, NOW), "signature mismatch");
  assertEquals(
    await verifyWebhookSignature(SECRET, body, header, NOW + 301_000),
    "timestamp outside the tolerance",
  );
  assertEquals(await verifyWebhookSignature(SECRET, body, null, NOW), "no signature header");
  // A receiver may be sent one v1 per secret while a secret changes.
  const other = await signWebhook("old-secret", body, ts);
  assertEquals(
    await verifyWebhookSignature(SECRET, body, `${other},v1=${header.split("v1=")[1]}`, NOW),
    null,
  );
  // The digest is HMAC-SHA256 over "<t>.<body>", as docs/governance.md says a receiver computes it.
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${ts}.${body}`)),
  );
  assertEquals(header, `t=${ts},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`);
});
