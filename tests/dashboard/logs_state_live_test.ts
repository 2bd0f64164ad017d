import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { loadSecretBox, seedFromConfig, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { chatChunk, chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { sse } from "../helpers/mock_upstream.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";
import { waitFor } from "../helpers/wait.ts";

type Json = Record<string, unknown>;
const ask = (url: string, extra: Json = {}) =>
  post(`${url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hello" }],
    ...extra,
  });

Deno.test("request logs: every request is listed, bodies only while logging is on; keyset pages, detail, export, clear", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: chatCompletion("not logged") });
  await (await ask(t.gw.url)).text();
  await t.json("/dashboard/api/settings", body("POST", { server_request_logging: true }));
  t.mock.script({ json: chatCompletion("logged answer") });
  await (await ask(t.gw.url)).text();
  t.mock.script({
    chunks: sse(chatChunk({ role: "assistant", content: "streamed words" }), chatChunk({}, "stop"), "[DONE]"),
  });
  await (await ask(t.gw.url, { stream: true })).text();
  t.mock.script({ json: { error: { message: "bad request from upstream" } }, status: 400 });
  await (await ask(t.gw.url)).text();
  // The streamed answer reported no usage: its row waits for the token estimate.
  await t.gw.runtime.recorder.settled();

  const page = await t.json("/dashboard/api/v2/state/request-logs?limit=2");
  const data = page.body.data as Json;
  assertEquals(data.logging_enabled, true);
  assert(typeof data.next_cursor === "string", "a next page");
  const next = await t.json(`/dashboard/api/v2/state/request-logs?limit=2&cursor=${data.next_cursor}`);
  assertEquals((next.body.data as Json).next_cursor, null);
  // Two pages of two hold the four requests once each (requests in the same millisecond may swap places).
  const rows = [...data.rows as Json[], ...(next.body.data as Json).rows as Json[]];
  assertEquals(new Set(rows.map((r) => r.id)).size, 4);
  assertEquals(rows.map((r) => r.status).sort(), [200, 200, 200, 400]);
  const failed = rows.find((r) => r.status === 400)!;
  assertEquals(failed.user, "(no key)");
  assertEquals((failed.chain as Json[]).map((a) => [a.account_id, a.status]), [["acct-a", 400]]);
  const unlogged = rows.find((r) => r.log_id === null)!;
  assertEquals([unlogged.input_tokens, unlogged.output_tokens, unlogged.streamed], [10, 5, false]);
  assertEquals(
    rows.filter((r) => r.log_id === null).length,
    1,
    "only the request made while logging was off",
  );
  const streamed = rows.find((r) => r.streamed === true)!;
  const detail = await t.json(`/dashboard/api/request-logs/${streamed.log_id}`);
  const log = detail.body.log as Json;
  assertStringIncludes(log.request_body as string, '"hello"');
  assertEquals(log.response_body, "streamed words");
  assertEquals(detail.headers.get("cache-control"), "private, no-store");
  const exported = await t.api("/dashboard/api/request-logs/export");
  assertStringIncludes(exported.headers.get("content-disposition") ?? "", "attachment");
  const all = await exported.json() as Json[];
  assertEquals(all.map((r) => typeof r.request_body).sort(), ["string", "string", "string", "undefined"]);
  const filtered = await (await t.api("/dashboard/api/request-logs/export?status=4xx")).json() as Json[];
  assertEquals(filtered.map((r) => r.status), [400]);
  const streamedOnly = await t.json("/dashboard/api/v2/state/request-logs?stream=true&model=p/m1");
  assertEquals(((streamedOnly.body.data as Json).rows as Json[]).map((r) => r.id), [streamed.id]);
  for (
    const [query, field] of [["status=oops", "status"], ["stream=yes", "stream"], ["cursor=x", "cursor"]]
  ) {
    const bad = await t.json(`/dashboard/api/v2/state/request-logs?${query}`);
    assertEquals([bad.status, (bad.body.error as Json).field], [400, field], query);
  }
  assertEquals((await t.json("/dashboard/api/request-logs", { method: "DELETE" })).body, {
    ok: true,
    deleted: 4,
  });
  assertEquals((await t.json(`/dashboard/api/request-logs/${streamed.log_id}`)).status, 404);
});

Deno.test("request logs: bodies are cut at 64 KiB and the table is pruned to the retention setting", async () => {
  await using t = await setupDashboard();
  await t.json(
    "/dashboard/api/settings",
    body("POST", { server_request_logging: true, server_request_log_retention: 50 }),
  );
  t.mock.script({ json: chatCompletion("ok") });
  const big = "x".repeat(100_000);
  await (await ask(t.gw.url, { messages: [{ role: "user", content: big }] })).text();
  for (let i = 0; i < 55; i++) await (await ask(t.gw.url)).text();
  t.gw.runtime.writer.flush();
  const store = t.gw.runtime.control.store;
  assertEquals(store.requestLogs.count(), 50);
  await t.json("/dashboard/api/request-logs", { method: "DELETE" });
  await (await ask(t.gw.url, { messages: [{ role: "user", content: big }] })).text();
  t.gw.runtime.writer.flush();
  const [row] = store.requestLogs.all();
  assertEquals(new TextEncoder().encode(row.requestBody).length, 64 * 1024);
  assertEquals(row.requestTruncated, true);
});

Deno.test("state API: every section answers {section, alerts, data, meta} with no-store; unknown is 404", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: chatCompletion("hi", { prompt_tokens: 100, completion_tokens: 20 }) });
  await (await ask(t.gw.url)).text();
  await (await ask(t.gw.url, { model: "p/m1" })).text();
  t.gw.runtime.writer.flush();
  for (
    const section of [
      "overview",
      "usage",
      "analytics",
      "leaderboard",
      "request-logs",
      "inventory",
      "inventory-keys",
      "providers",
      "combos",
      "routing",
      "savers",
      "budgets",
      "keys",
      "tools",
      "pricing",
      "settings",
    ]
  ) {
    const r = await t.json(`/dashboard/api/v2/state/${section}`);
    assertEquals([section, r.status, r.headers.get("cache-control")], [section, 200, "private, no-store"]);
    assertEquals(Object.keys(r.body).sort(), ["alerts", "data", "meta", "section"]);
    assertEquals(r.body.section, section);
  }
  assertEquals((await t.json("/dashboard/api/v2/state/nope")).status, 404);
  const overview = (await t.json("/dashboard/api/v2/state/overview")).body.data as Json;
  assertEquals((overview.totals as Json).requests, 2);
  assertEquals((overview.totals as Json).input_tokens, 200);
  assertEquals((overview.today as Json).output_tokens, 40);
  const analytics = await t.json("/dashboard/api/v2/state/analytics?days=7&dimension=provider");
  const a = analytics.body.data as Json;
  assertEquals([a.days, a.dimension, (a.daily as unknown[]).length], [7, "provider", 7]);
  assertEquals((a.breakdown as Json[])[0].key, "acct-a");
  assertEquals((analytics.body.meta as Json).days, 7);
  // p/m1 has no builtin price: the alert says so.
  assert((analytics.body.alerts as Json[]).some((x) => x.id === "unpriced:models"));
  const board = (await t.json("/dashboard/api/v2/state/leaderboard?sort=requests")).body.data as Json;
  assertEquals((board.rows as Json[])[0].key_name, "(no key)");
  const tools = (await t.json("/dashboard/api/v2/state/tools")).body.data as Json;
  const claude = (tools.cards as Json[]).find((c) => c.id === "claude-code")!;
  assertEquals((claude.env as Json[])[0], { name: "ANTHROPIC_BASE_URL", value: t.gw.url });
  assertEquals((tools.cards as Json[]).map((c) => c.id), [
    "claude-code",
    "codex-cli",
    "gemini-cli",
    "qwen-code",
    "opencode",
    "aider",
    "cline",
    "continue",
    "cursor",
    "openai-sdk",
    "anthropic-sdk",
    "genai-sdk",
    "ollama-sdk",
    "curl",
  ]);
});

Deno.test("state API: budget alerts appear when a budget is exceeded", async () => {
  await using t = await setupDashboard();
  await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "p/m1", input_per_mtok: 1_000_000, output_per_mtok: 0 }),
  );
  await t.json("/dashboard/api/budgets", body("POST", { scope: "global", daily_limit: 1 }));
  t.mock.script({ json: chatCompletion("hi", { prompt_tokens: 5, completion_tokens: 1 }) });
  await (await ask(t.gw.url)).text();
  const r = await t.json("/dashboard/api/v2/state/budgets");
  const alert = (r.body.alerts as Json[]).find((a) => a.id === "budget:global");
  assertEquals(alert?.severity, "critical");
  assertEquals(((r.body.data as Json).budgets as Json[])[0].status, "exceeded");
});

Deno.test("export → fresh home: the YAML loads with parseConfig and seeds the same providers, combos and prices", async () => {
  await using t = await setupDashboard();
  await t.json("/dashboard/api/combos", body("POST", { name: "duo", models: ["p/m1"] }));
  await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "p/m1", input_per_mtok: 2, output_per_mtok: 3 }),
  );
  await t.json("/dashboard/api/providers/acct-a/disable", { method: "POST" });
  await t.json("/dashboard/api/settings", body("POST", { saver_caveman_enabled: true }));
  const response = await t.api("/dashboard/api/export?include_secrets=true");
  assertEquals(response.headers.get("cache-control"), "private, no-store");
  const yaml = await response.text();
  const dir = Deno.makeTempDirSync({ prefix: "gateway-export-" });
  try {
    const paths = resolveHomePaths(`${dir}/config.yaml`, {});
    const config = parseConfig(yaml, paths, () => undefined);
    const store = Store.open(paths.dbPath, loadSecretBox(paths.secretKeyPath, undefined));
    try {
      seedFromConfig(store.db, config, loadSecretBox(paths.secretKeyPath, undefined), Date.now());
      const [provider] = store.providers.list();
      assertEquals([provider.id, provider.apiKey, provider.enabled], [
        "acct-a",
        "upstream-key-acct-a",
        false,
      ]);
      assertEquals(store.combos.list().map((c) => [c.name, c.models]), [["duo", ["p/m1"]]]);
      assertEquals(store.pricing.all()["p/m1"].outputPerMtok, 3);
      assertEquals(store.settings.all().get("saver_caveman_enabled"), "true");
    } finally {
      store.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("reset deletes dashboard-made providers, combos, prices and saver settings and re-seeds from YAML", async () => {
  await using t = await setupDashboard();
  await t.json(
    "/dashboard/api/providers",
    body("POST", { id: "extra", prefix: "e", api_type: "chat_compat", base_url: "http://127.0.0.1:9/v1" }),
  );
  await t.json("/dashboard/api/combos", body("POST", { name: "duo", models: ["p/m1"] }));
  await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "p/m1", input_per_mtok: 2, output_per_mtok: 3 }),
  );
  await t.json(
    "/dashboard/api/settings",
    body("POST", { saver_rtk_enabled: false, combo_strategy: "round_robin" }),
  );
  const key = await t.json("/dashboard/api/v2/keys", body("POST", { name: "kept" }));
  const reset = await t.json("/dashboard/api/reset", { method: "POST" });
  assertEquals(reset.body, { ok: true, seeded: { providers: 1, combos: 0, savers: true, pricing: 0 } });
  const control = t.gw.runtime.control;
  assertEquals(control.providers.map((p) => p.id), ["acct-a"]);
  assertEquals([control.combos.length, Object.keys(control.pricing).length], [0, 0]);
  assertEquals(control.settings.saver_rtk_enabled, true);
  assertEquals(control.settings.combo_strategy, "round_robin", "other settings are kept");
  assertEquals(control.keys.map((k) => k.id), [(key.body.key as Json).id]);
  Deno.writeTextFileSync(t.gw.configPath, "providers: [oops");
  const broken = await t.json("/dashboard/api/reset", { method: "POST" });
  assertEquals([broken.status, (broken.body.error as Json).field], [422, "config"]);
  assertEquals(control.providers.length, 1, "nothing changed");
});

Deno.test("live stream: snapshot first, then batched request events and in-flight counts while requests flow", async () => {
  await using t = await setupDashboard();
  t.mock.script({
    handler: async () => {
      await new Promise((r) => setTimeout(r, 400));
      return Response.json(chatCompletion("hi", { prompt_tokens: 7, completion_tokens: 3 }));
    },
  });
  const controller = new AbortController();
  try {
    const response = await t.api("/dashboard/api/live", { signal: controller.signal });
    assertEquals(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const events = () =>
      text.split("\n\n").slice(0, -1).filter((m) => m.startsWith("event: request")).flatMap((m) =>
        JSON.parse(m.slice(m.indexOf("data: ") + 6)).events as Json[]
      );
    const readUntil = async (done: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!done() && Date.now() < deadline) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const next = await Promise.race([
          reader.read(),
          new Promise<null>((r) => timer = setTimeout(() => r(null), 500)),
        ]);
        clearTimeout(timer);
        if (next === null) continue;
        if (next.done) break;
        text += next.value;
      }
    };
    await readUntil(() => text.includes("event: snapshot"));
    assert(text.startsWith("event: snapshot\ndata: "));
    await Promise.all(Array.from({ length: 20 }, async () => await (await ask(t.gw.url)).text()));
    await readUntil(() =>
      events().filter((e) => e.phase === "usage").length >= 20 &&
      events().filter((e) => e.phase === "finish").length >= 20
    );
    const all = events();
    assertEquals(all.filter((e) => e.phase === "start").length, 20);
    assertEquals(all.filter((e) => e.phase === "finish").length, 20);
    const usage = all.filter((e) => e.phase === "usage");
    assertEquals(usage.length, 20);
    assertEquals([usage[0].input_tokens, usage[0].output_tokens, usage[0].model], [7, 3, "p/m1"]);
    const batches = text.split("\n\n").filter((m) => m.startsWith("event: request")).length;
    assert(batches < 20, `events are batched (${batches} batches for 60 events)`);
    assertMatch(text, /event: inflight\ndata: \{"count":[1-9]/);
    await readUntil(() => text.includes('event: inflight\ndata: {"count":0}'));
    assertStringIncludes(text, 'event: inflight\ndata: {"count":0}');
    await reader.cancel().catch(() => {});
  } finally {
    controller.abort();
  }
  await waitFor(() => t.gw.dashboard.hub.subscribers === 0, {
    what: "the live stream's subscriber to leave",
  });
});
