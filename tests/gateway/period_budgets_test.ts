/**
 * Budgets over any period through a running gateway with an injected clock: a calendar month crossing its
 * boundary, a week (Monday to Monday), a rolling window, a change of the reporting time zone moving the
 * windows, a group's budget counting all its keys, a budget without hard stop, and the signed webhook to a
 * loopback receiver (retried when the receiver fails).
 */
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";
import { verifyWebhookSignature } from "../../src/accounting/webhook_signature.ts";
import type { PeriodBudgetSettings } from "../../src/features/mod.ts";

// At $1000 per million tokens: 7 tokens cost $0.007.
const COMPLETION = chatCompletion("hi", { prompt_tokens: 5, completion_tokens: 2 });
// The webhook receiver is on loopback: the operator allows private webhook targets.
const PRICING = "pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n" +
  "inventory:\n  allow_private_targets: true\n";

/** Saturday 2026-01-31 09:00 UTC. */
const JAN_31_0900 = Date.UTC(2026, 0, 31, 9, 0);
const HOUR = 3_600_000;

interface Env extends AsyncDisposable {
  readonly gw: TestGateway;
  readonly upstream: MockUpstream;
  clock: number;
  key(name: string, groupId?: number): string;
  ask(key: string): Promise<Response>;
  budget(settings: PeriodBudgetSettings): number;
}

async function env(): Promise<Env> {
  const upstream = await startMockUpstream();
  upstream.script({ json: COMPLETION });
  const state = { clock: JAN_31_0900 };
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "up", prefix: "up", url: upstream.url }], PRICING),
    {
      now: () => state.clock,
    },
  );
  gw.management.settings.apply({ reporting_timezone: "UTC" });
  const keyIds = new Map<string, number>();
  return {
    gw,
    upstream,
    get clock() {
      return state.clock;
    },
    set clock(value: number) {
      state.clock = value;
    },
    key(name, groupId) {
      const created = gw.management.keys.create({ name, canLogin: false, allowedModels: [], groupId });
      keyIds.set(created.plaintext, created.record.id);
      return created.plaintext;
    },
    async ask(key) {
      const response = await fetch(`${gw.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "up/m1", messages: [{ role: "user", content: "hi" }] }),
      });
      // Usage is recorded after the answer; the next check must see it.
      await gw.runtime.recorder.settled();
      return response;
    },
    budget(settings) {
      return gw.management.budgets.setPeriod(settings).budget.id;
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await upstream.close();
    },
  };
}

async function spend(e: Env, key: string, requests: number): Promise<void> {
  for (let i = 0; i < requests; i++) {
    const response = await e.ask(key);
    assertEquals(response.status, 200, await response.text());
  }
}

Deno.test("a monthly budget refuses with a period body until the month ends, then lets requests through", async () => {
  await using e = await env();
  const key = e.key("monthly");
  const keyId = e.gw.management.keys.find("monthly")!.id;
  e.budget({ scope: { kind: "key", keyId }, period: "month", limit: 0.02 });
  e.clock = Date.UTC(2026, 0, 31, 22, 0);
  await spend(e, key, 3);
  const refused = await e.ask(key);
  assertEquals(refused.status, 429);
  // Two hours to the 1st of February, 00:00 UTC.
  assertEquals(refused.headers.get("retry-after"), "7200");
  const body = await refused.json();
  assertEquals(body.error.type, "budget_exceeded");
  assertEquals(body.error.period, "month");
  assertEquals(body.error.period_limit, 0.02);
  assertEquals(body.error.period_spend, 0.021);
  assertEquals(body.error.resets_at, "2026-02-01T00:00:00.000Z");
  assertStringIncludes(body.error.message, "monthly budget of $0.02");
  assertEquals(body.error.today_spend, undefined);
  e.clock = Date.UTC(2026, 1, 1, 0, 0, 1);
  assertEquals((await e.ask(key)).status, 200);
});

Deno.test("a weekly budget holds from Monday to Monday; a rolling window frees once its spend ages out", async () => {
  await using e = await env();
  const weekly = e.key("weekly");
  const rolling = e.key("rolling");
  const find = (name: string) => e.gw.management.keys.find(name)!.id;
  e.budget({ scope: { kind: "key", keyId: find("weekly") }, period: "week", limit: 0.02 });
  e.budget({
    scope: { kind: "key", keyId: find("rolling") },
    period: "rolling",
    rollingMs: 5 * HOUR,
    limit: 0.02,
  });
  await spend(e, weekly, 3);
  await spend(e, rolling, 3);
  // Sunday 23:00: the same ISO week.
  e.clock = Date.UTC(2026, 1, 1, 23, 0);
  const week = await e.ask(weekly);
  assertEquals(week.status, 429);
  const weekBody = await week.json();
  assertEquals(weekBody.error.period, "week");
  assertEquals(weekBody.error.resets_at, "2026-02-02T00:00:00.000Z");
  assertEquals(week.headers.get("retry-after"), "3600");
  // Monday 00:00: a new week.
  e.clock = Date.UTC(2026, 1, 2, 0, 0, 1);
  assertEquals((await e.ask(weekly)).status, 200);

  e.clock = JAN_31_0900 + 4 * HOUR;
  const window = await e.ask(rolling);
  assertEquals(window.status, 429);
  const windowBody = await window.json();
  assertEquals(windowBody.error.period, "rolling");
  assertEquals(windowBody.error.window_seconds, 18_000);
  // The spend leaves the window five hours (and at most one one-minute bucket) after it was made.
  const resetsAt = Date.parse(windowBody.error.resets_at);
  assert(
    resetsAt >= JAN_31_0900 + 5 * HOUR && resetsAt <= JAN_31_0900 + 5 * HOUR + 60_000,
    windowBody.error.resets_at,
  );
  e.clock = resetsAt;
  assertEquals((await e.ask(rolling)).status, 200);
});

Deno.test("changing the reporting time zone moves the month: spend before the local 1st no longer counts", async () => {
  await using e = await env();
  const key = e.key("zoned");
  e.budget({
    scope: { kind: "key", keyId: e.gw.management.keys.find("zoned")!.id },
    period: "month",
    limit: 0.02,
  });
  // 09:00 UTC on 31 January: still January in UTC, already 1 February 00:00 onwards from 10:00 UTC in
  // Kiritimati (UTC+14).
  await spend(e, key, 3);
  e.clock = JAN_31_0900 + 2 * HOUR;
  assertEquals((await e.ask(key)).status, 429);
  e.gw.management.settings.apply({ reporting_timezone: "Pacific/Kiritimati" });
  const allowed = await e.ask(key);
  assertEquals(allowed.status, 200);
  // And back: January again, with all four requests of the month counted.
  e.gw.management.settings.apply({ reporting_timezone: "UTC" });
  const again = await e.ask(key);
  assertEquals(again.status, 429);
  assertEquals((await again.json()).error.period_spend, 0.028);
});

Deno.test("a group's budget counts every key of the group; a budget without hard stop only alerts", async () => {
  await using e = await env();
  const group = e.gw.management.groups.create({ name: "team-a" });
  const a = e.key("a", group.id);
  const b = e.key("b", group.id);
  const outsider = e.key("outsider");
  e.budget({ scope: { kind: "group", groupId: group.id }, period: "day", limit: 0.02 });
  e.budget({ scope: { kind: "global" }, period: "week", limit: 0.001, hardStop: false });
  await spend(e, a, 2);
  await spend(e, b, 1);
  const refused = await e.ask(b);
  assertEquals(refused.status, 429);
  const body = await refused.json();
  // A group's daily budget keeps the spec's daily body.
  assertEquals(Object.keys(body.error).sort(), ["daily_limit", "message", "today_spend", "type"]);
  assertStringIncludes(body.error.message, "This API key's group's daily budget");
  assertEquals((await e.ask(a)).status, 429);
  // Not in the group: only the global weekly budget applies, and it does not stop requests.
  assertEquals((await e.ask(outsider)).status, 200);
  await waitFor(() => e.gw.management.budgets.alerts(0).some((alert) => alert.level === "exceeded"), {
    what: "the global weekly budget's alert",
  });
});

Deno.test("crossing the warn threshold POSTs one signed webhook, retried when the receiver fails", async () => {
  await using e = await env();
  const received: {
    body: string;
    signature: string | null;
    delivery: string | null;
    event: string | null;
  }[] = [];
  let failures = 1;
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    received.push({
      body: await request.text(),
      signature: request.headers.get("x-gateway-signature"),
      delivery: request.headers.get("x-gateway-delivery"),
      event: request.headers.get("x-gateway-event"),
    });
    if (failures-- > 0) return new Response("busy", { status: 503 });
    return new Response(null, { status: 204 });
  });
  try {
    const key = e.key("hooked");
    const secret = "whsec_test_secret_0123456789";
    e.budget({
      scope: { kind: "key", keyId: e.gw.management.keys.find("hooked")!.id },
      period: "week",
      limit: 0.02,
      warnPct: 50,
      webhookUrl: `http://127.0.0.1:${receiver.addr.port}/hook`,
      webhookSecret: secret,
    });
    await spend(e, key, 1);
    assertEquals(received.length, 0);
    // $0.014 of $0.02: 70 %, over the 50 % warn threshold.
    await spend(e, key, 1);
    await waitFor(() => received.length >= 2, { what: "the webhook and its retry" });
    const [first, retry] = received;
    assertEquals(first.delivery, retry.delivery);
    assertEquals(retry.event, "budget.warning");
    assertEquals(await verifyWebhookSignature(secret, retry.body, retry.signature, e.clock), null);
    assertMatch(
      await verifyWebhookSignature("wrong-secret-0123456789", retry.body, retry.signature, e.clock) ?? "",
      /./,
    );
    const event = JSON.parse(retry.body);
    assertEquals(event.type, "budget.warning");
    assertEquals(event.budget.period, "week");
    assertEquals(event.budget.scope, "key");
    assertEquals(event.budget.scope_name, "hooked");
    assertEquals(event.spent, 0.014);
    assertEquals(event.resets_at, "2026-02-02T00:00:00.000Z");
    // One alert per level and window, recorded for the dashboard.
    assertEquals(e.gw.management.budgets.alerts(0).map((a) => a.level), ["warning"]);
  } finally {
    await receiver.shutdown();
  }
});
