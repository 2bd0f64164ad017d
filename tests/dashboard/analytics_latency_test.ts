/** Analytics: p50 / p95 latency and time to first token per model and provider, and hourly buckets for the one-day window. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { setupDashboard } from "./dashboard_helpers.ts";
import { createKey } from "../../src/features/keys/service.ts";

type Json = Record<string, unknown>;

type Row = { key: string; requests: number; p50_ms: number; p95_ms: number };

Deno.test("analytics: latency percentiles per model and provider count successful requests only", async () => {
  await using t = await setupDashboard();
  t.mock.script(
    { json: chatCompletion("a", { prompt_tokens: 1, completion_tokens: 1 }) },
    { json: chatCompletion("b", { prompt_tokens: 1, completion_tokens: 1 }) },
    { json: chatCompletion("c", { prompt_tokens: 1, completion_tokens: 1 }) },
    { json: { error: { message: "boom" } }, status: 400 },
  );
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content: `hi ${i}` }],
    });
    statuses.push(r.status);
    await r.body?.cancel();
  }
  const ok = statuses.filter((s) => s === 200).length;
  assert(ok > 0 && ok < statuses.length, `some succeeded, some failed: ${statuses}`);
  t.gw.runtime.writer.flush();
  const analytics = await t.json("/dashboard/api/v2/state/analytics?days=30");
  assertEquals(analytics.status, 200);
  const latency = (analytics.body.data as { latency: { by_model: Row[]; by_provider: Row[] } }).latency;
  assertEquals(latency.by_model.map((r) => [r.key, r.requests]), [["p/m1", ok]]);
  assertEquals(latency.by_provider.map((r) => [r.key, r.requests]), [["acct-a", ok]]);
  for (const row of [...latency.by_model, ...latency.by_provider]) {
    assert(row.p50_ms >= 0 && row.p50_ms <= row.p95_ms, JSON.stringify(row));
  }
  // Time to first token, from the request index: the same successful requests, beside the latency.
  const ttft = (analytics.body.data as { ttft: { by_model: Row[]; by_provider: Row[] } }).ttft;
  assertEquals(ttft.by_model.map((r) => [r.key, r.requests]), [["p/m1", ok]]);
  assertEquals(ttft.by_provider.map((r) => [r.key, r.requests]), [["acct-a", ok]]);
  for (const row of [...ttft.by_model, ...ttft.by_provider]) {
    assert(row.p50_ms >= 0 && row.p50_ms <= row.p95_ms, JSON.stringify(row));
  }
});

Deno.test("analytics: the one-day window charts the last 24 hours; longer windows chart days", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: chatCompletion("a", { prompt_tokens: 3, completion_tokens: 2 }) });
  for (let i = 0; i < 2; i++) {
    const r = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content: `hi ${i}` }],
    });
    assertEquals(r.status, 200);
    await r.body?.cancel();
  }
  t.gw.runtime.writer.flush();
  type Point = { date: string; requests: number; tokens: number };
  const day = (await t.json("/dashboard/api/v2/state/analytics?days=1")).body.data as {
    days: number;
    hourly: Point[];
  };
  assertEquals(day.days, 1);
  assertEquals(day.hourly.length, 24);
  const sum = (f: (p: Point) => number) => day.hourly.reduce((n, p) => n + f(p), 0);
  assertEquals([sum((p) => p.requests), sum((p) => p.tokens)], [2, 10], "both requests in the last 24 hours");
  const starts = day.hourly.map((p) => Date.parse(`${p.date}:00Z`));
  assert(starts.every((ms, i) => i === 0 || ms - starts[i - 1] === 3_600_000), "consecutive hours");
  const month = (await t.json("/dashboard/api/v2/state/analytics?days=30")).body.data as { hourly: unknown };
  assertEquals(month.hourly, null);
});

Deno.test("analytics: a key's drill-down has its requests, tokens, cost, errors and models per day", async () => {
  await using t = await setupDashboard();
  const store = t.gw.runtime.control.store;
  const laptop = createKey(store, { name: "laptop", canLogin: false, allowedModels: [] }, Date.now());
  const ci = createKey(store, { name: "ci", canLogin: false, allowedModels: [] }, Date.now());
  t.gw.runtime.control.reload();
  t.mock.script(
    { json: chatCompletion("a", { prompt_tokens: 3, completion_tokens: 2 }) },
    { json: chatCompletion("b", { prompt_tokens: 4, completion_tokens: 1 }) },
    { json: { error: { message: "bad" } }, status: 400 },
    { json: chatCompletion("c", { prompt_tokens: 9, completion_tokens: 9 }) },
  );
  const send = async (key: string, model: string) => {
    const r = await post(`${t.gw.url}/v1/chat/completions`, {
      model,
      messages: [{ role: "user", content: "hi" }],
    }, { authorization: `Bearer ${key}` });
    await r.body?.cancel();
    return r.status;
  };
  const statuses = [
    await send(laptop.plaintext, "p/m1"),
    await send(laptop.plaintext, "p/m2"),
    await send(laptop.plaintext, "p/m2"),
    await send(ci.plaintext, "p/m1"),
  ];
  t.gw.runtime.writer.flush();
  const answer = await t.json("/dashboard/api/v2/state/analytics?days=7&dimension=client_key&key=laptop");
  const detail = (answer.body.data as { key_detail: Json }).key_detail;
  const summary = detail.summary as Json;
  const laptopErrors = statuses.slice(0, 3).filter((s) => s >= 400).length;
  assert(laptopErrors >= 1, `one laptop request failed: ${statuses}`);
  assertEquals([detail.key, summary.requests, summary.errors], ["laptop", 3, laptopErrors]);
  assertEquals((detail.models as Json[]).map((m) => [m.key, m.requests]).sort(), [["p/m1", 1], ["p/m2", 2]]);
  const perDay = detail.model_daily as Json[];
  assertEquals(perDay.map((r) => [r.model, r.requests]), [["p/m1", 1], ["p/m2", 2]]);
  assertEquals((detail.daily as Json[]).length, 7);
  const none = await t.json("/dashboard/api/v2/state/analytics?days=7");
  assertEquals((none.body.data as Json).key_detail, null);
});
