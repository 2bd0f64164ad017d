import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

type Json = Record<string, unknown>;

Deno.test("keys API: create returns the plaintext once with no-store; update and revoke; validation names the field", async () => {
  await using t = await setupDashboard();
  const created = await t.json(
    "/dashboard/api/v2/keys",
    body("POST", {
      name: "ci",
      allowed_models: "p/*, p/m1",
      daily_budget: 5,
    }),
  );
  assertEquals(created.status, 201);
  assertEquals(created.headers.get("cache-control"), "private, no-store");
  const key = created.body.key as Json;
  assertEquals([key.allowed_models, key.daily_budget, key.can_login], [["p/*", "p/m1"], 5, true]);
  const plaintext = created.body.plaintext as string;
  assert(plaintext.startsWith("sk-gateway-"));
  const listed = await t.json("/dashboard/api/v2/state/keys");
  assert(!JSON.stringify(listed.body).includes(plaintext), "state must never contain the key");

  const updated = await t.json(
    `/dashboard/api/keys/${key.id}`,
    body("POST", { name: "ci2", allowed_models: [], daily_budget: null }),
  );
  assertEquals(updated.status, 200);
  assertEquals([(updated.body.key as Json).name, (updated.body.key as Json).daily_budget], ["ci2", null]);

  const bad = await t.json("/dashboard/api/v2/keys", body("POST", { name: "", daily_budget: -1 }));
  assertEquals(bad.status, 400);
  assertEquals((bad.body.error as Json).type, "invalid_request");
  assertEquals((bad.body.error as Json).field, "name");
  const badModels = await t.json(
    "/dashboard/api/v2/keys",
    body("POST", { name: "x", allowed_models: ["not a model"] }),
  );
  assertEquals((badModels.body.error as Json).field, "models");
  assertEquals(t.gw.runtime.control.keys.length, 1, "nothing stored on error");

  const revoked = await t.json(`/dashboard/api/keys/${key.id}`, { method: "DELETE" });
  assertEquals((revoked.body.key as Json).status, "revoked");
  const api = await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", messages: [] }, {
    authorization: `Bearer ${plaintext}`,
  });
  await api.body?.cancel();
  assertEquals((await t.json("/dashboard/api/keys/999", { method: "DELETE" })).status, 404);
});

Deno.test("budgets API: create global and per-key, update, delete, validation", async () => {
  await using t = await setupDashboard();
  const global = await t.json("/dashboard/api/budgets", body("POST", { scope: "global", daily_limit: 10 }));
  assertEquals(global.status, 200);
  assertEquals((global.body.budget as Json).scope, "global");
  assertEquals((global.body.budget as Json).warn_pct, 80);
  const again = await t.json(
    "/dashboard/api/budgets",
    body("POST", { scope: "global", daily_limit: 20, warn_pct: 50 }),
  );
  assertEquals((again.body.budget as Json).id, (global.body.budget as Json).id);
  assertEquals(t.gw.runtime.control.budgets[0].dailyLimit, 20);
  const key = await t.json("/dashboard/api/v2/keys", body("POST", { name: "k" }));
  const perKey = await t.json(
    "/dashboard/api/budgets",
    body("POST", { scope: (key.body.key as Json).id, daily_limit: 1 }),
  );
  assertEquals((perKey.body.budget as Json).scope_label, "k");
  for (
    const [input, field] of [
      [{ scope: "global", daily_limit: 0 }, "daily_limit"],
      [{ scope: "global", daily_limit: 5, warn_pct: 150 }, "warn_pct"],
      [{ scope: 999, daily_limit: 5 }, "scope"],
      [{ scope: "everyone", daily_limit: 5 }, "scope"],
    ] as const
  ) {
    const bad = await t.json("/dashboard/api/budgets", body("POST", input));
    assertEquals([bad.status, (bad.body.error as Json).field], [400, field]);
  }
  assertEquals(
    (await t.json(`/dashboard/api/budgets/${(global.body.budget as Json).id}`, { method: "DELETE" })).status,
    200,
  );
  assertEquals(t.gw.runtime.control.budgets.length, 1);
  assertEquals((await t.json("/dashboard/api/budgets/12345", { method: "DELETE" })).status, 404);
});

Deno.test("providers API: a created provider routes at once; disable stops it and closes its client; delete removes it", async () => {
  await using t = await setupDashboard();
  const other = await startMockUpstream();
  try {
    other.script({ json: chatCompletion("from new provider") });
    const created = await t.json(
      "/dashboard/api/providers",
      body("POST", {
        id: "acct-new",
        prefix: "q",
        api_type: "chat_compat",
        base_url: `${other.url}/v1/`,
        api_key: "secret-upstream-value-9876",
        models: "m2, m3",
      }),
    );
    assertEquals(created.status, 201);
    const view = created.body.provider as Json;
    assertEquals([view.base_url, view.models, view.api_key_masked], [
      `${other.url}/v1`,
      ["m2", "m3"],
      "sec…9876",
    ]);
    assert(!JSON.stringify(created.body).includes("secret-upstream-value-9876"));

    const routed = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "q/m2",
      messages: [{ role: "user", content: "hi" }],
    });
    assertEquals(routed.status, 200);
    assertStringIncludes(await routed.text(), "from new provider");
    assertEquals(other.requests[0].headers.get("authorization"), "Bearer secret-upstream-value-9876");
    assert(t.gw.runtime.clients.openIds().includes("acct-new"));

    // Blank api_key on update keeps the stored one.
    const updated = await t.json(
      "/dashboard/api/providers/acct-new",
      body("PUT", { api_key: "", models: ["m2"] }),
    );
    assertEquals((updated.body.provider as Json).api_key_masked, "sec…9876");
    assertEquals(
      t.gw.runtime.control.providers.find((p) => p.id === "acct-new")?.apiKey,
      "secret-upstream-value-9876",
    );

    const disabled = await t.json("/dashboard/api/providers/acct-new/disable", { method: "POST" });
    assertEquals((disabled.body.provider as Json).enabled, false);
    assert(!t.gw.runtime.clients.openIds().includes("acct-new"), "disable closes the client");
    const refused = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "q/m2",
      messages: [{ role: "user", content: "hi" }],
    });
    await refused.body?.cancel();
    assert(refused.status === 404 || refused.status === 503, `got ${refused.status}`);

    await t.json("/dashboard/api/providers/acct-new/enable", { method: "POST" });
    const again = await post(`${t.gw.url}/v1/chat/completions`, {
      model: "q/m2",
      messages: [{ role: "user", content: "hi" }],
    });
    assertEquals(again.status, 200);
    await again.body?.cancel();
    assert(t.gw.runtime.clients.openIds().includes("acct-new"));
    assertEquals((await t.json("/dashboard/api/providers/acct-new", { method: "DELETE" })).status, 200);
    assert(!t.gw.runtime.clients.openIds().includes("acct-new"), "delete closes the client");
    assertEquals(t.gw.runtime.control.providers.some((p) => p.id === "acct-new"), false);
  } finally {
    await other.close();
  }
});

Deno.test("providers API: validation errors name the field and store nothing; duplicates are 409", async () => {
  await using t = await setupDashboard();
  const base = { id: "x1", prefix: "x", api_type: "chat_compat", base_url: "http://127.0.0.1:1/v1" };
  for (
    const [patch, field] of [
      [{ id: "bad id" }, "id"],
      [{ prefix: "a/b" }, "prefix"],
      [{ api_type: "nope" }, "api_type"],
      [{ base_url: "ftp://x" }, "base_url"],
      [{ models: ["has space"] }, "models.0"],
      // A key that no header can carry: it would fail every call, so it is refused where it is given.
      [{ api_key: "sk-a\r\nx-injected: 1" }, "api_key"],
      [{ api_key: "sk-\u0000" }, "api_key"],
      [{ api_key: "sk-\ud800" }, "api_key"],
      // A password in the URL would be shown wherever the URL is; the key belongs in api_key.
      [{ base_url: "https://user:sk-secret@api.example/v1" }, "base_url"],
    ] as const
  ) {
    const bad = await t.json("/dashboard/api/providers", body("POST", { ...base, ...patch }));
    assertEquals([bad.status, (bad.body.error as Json).field], [400, field]);
  }
  assertEquals(t.gw.runtime.control.providers.length, 1);
  // A pasted key's surrounding whitespace (a newline, a CR) is dropped, not sent upstream.
  const pasted = await t.json(
    "/dashboard/api/providers",
    body("POST", { ...base, api_key: " sk-pasted\r\n" }),
  );
  assertEquals(pasted.status, 201);
  assertEquals(t.gw.runtime.control.providers.find((p) => p.id === "x1")?.apiKey, "sk-pasted");
  const dup = await t.json("/dashboard/api/providers", body("POST", { ...base, id: "acct-a" }));
  assertEquals(dup.status, 409);
  assertEquals((await t.json("/dashboard/api/providers/none", body("PUT", {}))).status, 404);
});

Deno.test("providers API: fetch-models lists upstream ids with stored credentials; test reports status and latency", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: { object: "list", data: [{ id: "b-model" }, { id: "a-model" }] } });
  const fetched = await t.json(
    "/dashboard/api/providers/fetch-models",
    body("POST", { provider_id: "acct-a" }),
  );
  assertEquals(fetched.body.models, ["a-model", "b-model"]);
  assertEquals(t.mock.requests[0].path, "/v1/models");
  assertEquals(t.mock.requests[0].headers.get("authorization"), "Bearer upstream-key-acct-a");

  t.mock.script({ json: chatCompletion("x") });
  const probe = await t.json("/dashboard/api/providers/acct-a/test", { method: "POST" });
  assertEquals([probe.status, probe.body.ok, probe.body.status, probe.body.model], [200, true, 200, "m1"]);
  assert(typeof probe.body.latency_ms === "number");
  assertEquals(t.mock.requests[1].body.max_tokens ?? t.mock.requests[1].body.max_completion_tokens, 1);

  t.mock.script({ json: { error: { message: "bad key" } }, status: 401 });
  const failed = await t.json("/dashboard/api/providers/acct-a/test", { method: "POST" });
  assertEquals([failed.body.ok, failed.body.status], [false, 401]);
  assertStringIncludes(failed.body.message as string, "bad key");
  const upstreamDown = await t.json(
    "/dashboard/api/providers/fetch-models",
    body("POST", { provider_id: "acct-a" }),
  );
  assertEquals(upstreamDown.status, 502);
});

Deno.test("combos API: create routes by name; update by id or name; delete; validation", async () => {
  await using t = await setupDashboard();
  const created = await t.json("/dashboard/api/combos", body("POST", { name: "best", models: ["p/m1"] }));
  assertEquals(created.status, 201);
  assertEquals((created.body.combo as Json).unroutable, []);
  t.mock.script({ json: chatCompletion("combo answer") });
  const routed = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "best",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(routed.status, 200);
  await routed.body?.cancel();
  const updated = await t.json("/dashboard/api/combos/best", body("PUT", { models: "p/m1, z/none" }));
  assertEquals((updated.body.combo as Json).unroutable, ["z/none"]);
  assertEquals(
    (await t.json("/dashboard/api/combos", body("POST", { name: "best", models: ["p/m1"] }))).status,
    409,
  );
  const bad = await t.json("/dashboard/api/combos", body("POST", { name: "c2", models: ["nomodel"] }));
  assertEquals([bad.status, (bad.body.error as Json).field], [400, "models.0"]);
  assertEquals(
    (await t.json(`/dashboard/api/combos/${(created.body.combo as Json).id}`, { method: "DELETE" })).status,
    200,
  );
  assertEquals(t.gw.runtime.control.combos.length, 0);
});

Deno.test("settings API: partial map validated and clamped; unknown key or bad value changes nothing", async () => {
  await using t = await setupDashboard();
  const ok = await t.json(
    "/dashboard/api/settings",
    body("POST", {
      server_request_logging: true,
      server_request_log_retention: 10,
      combo_strategy: "round_robin",
    }),
  );
  assertEquals(ok.status, 200);
  const settings = ok.body.settings as Json;
  assertEquals([
    settings.server_request_logging,
    settings.server_request_log_retention,
    settings.combo_strategy,
  ], [true, 50, "round_robin"]);
  assertEquals(t.gw.runtime.control.settings.combo_strategy, "round_robin");
  const unknown = await t.json(
    "/dashboard/api/settings",
    body("POST", { combo_strategy: "fusion", bogus_key: 1 }),
  );
  assertEquals([unknown.status, (unknown.body.error as Json).field], [400, "bogus_key"]);
  assertStringIncludes((unknown.body.error as Json).message as string, "bogus_key");
  const bad = await t.json(
    "/dashboard/api/settings",
    body("POST", { combo_strategy: "fusion", server_cooldowns_enabled: "maybe" }),
  );
  assertEquals([bad.status, (bad.body.error as Json).field], [400, "server_cooldowns_enabled"]);
  assertEquals(t.gw.runtime.control.settings.combo_strategy, "round_robin", "nothing stored on error");
  const reset = await t.json("/dashboard/api/settings", body("POST", { combo_strategy: null }));
  assertEquals((reset.body.settings as Json).combo_strategy, "fallback");
});

Deno.test("pricing API: overrides apply to recorded cost; delete takes slashed model ids; validation", async () => {
  await using t = await setupDashboard();
  const set = await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "p/m1", input_per_mtok: 1_000_000, output_per_mtok: 0 }),
  );
  assertEquals((set.body.price as Json).cache_read_per_mtok, 0);
  t.mock.script({ json: chatCompletion("hi", { prompt_tokens: 3, completion_tokens: 1 }) });
  const r = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
  await r.body?.cancel();
  t.gw.runtime.writer.flush();
  const row = t.gw.runtime.control.store.db.prepare("SELECT cost FROM usage").get() as { cost: number };
  assertEquals(row.cost, 3);
  const bad = await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "x", input_per_mtok: -1, output_per_mtok: 1 }),
  );
  assertEquals([bad.status, (bad.body.error as Json).field], [400, "input_per_mtok"]);
  assertEquals(
    (await t.json(`/dashboard/api/pricing/${encodeURIComponent("p/m1")}`, { method: "DELETE" })).status,
    200,
  );
  assertEquals((await t.json("/dashboard/api/pricing/p/m1", { method: "DELETE" })).status, 404);
});

Deno.test("routing API: clear-cooldowns empties memory and the table", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: { error: { message: "boom" } }, status: 500 });
  const r = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
  await r.body?.cancel();
  const routing = await t.json("/dashboard/api/v2/state/routing");
  assertEquals(((routing.body.data as Json).cooldowns as unknown[]).length, 1);
  assert((routing.body.alerts as Json[]).some((a) => a.id === "cooldown:active"));
  const cleared = await t.json("/dashboard/api/routing/clear-cooldowns", { method: "POST" });
  assertEquals(cleared.body, { ok: true, cleared: 1 });
  assertEquals(t.gw.runtime.routing.active(Date.now()).length, 0);
  assertEquals(t.gw.runtime.control.store.cooldowns.all().length, 0);
});

Deno.test("inventory push: needs its own token, dedupes by hash and only shows masked keys", async () => {
  await using t = await setupDashboard();
  const payload = { keys: [{ provider: "openai", key: "sk-pushed-secret-000111", label: "team" }] };
  Deno.env.delete("INVENTORY_PUSH_TOKEN");
  assertEquals((await t.json("/dashboard/api/inventory/push", body("POST", payload))).status, 503);
  Deno.env.set("INVENTORY_PUSH_TOKEN", "push-token-abc");
  try {
    const wrong = await t.json("/dashboard/api/inventory/push", body("POST", payload));
    assertEquals(wrong.status, 401, "the dashboard key is not the push token");
    const push = (value: unknown) =>
      fetch(`${t.gw.url}/dashboard/api/inventory/push`, {
        method: "POST",
        headers: { authorization: "Bearer push-token-abc", "content-type": "application/json" },
        body: JSON.stringify(value),
      });
    const firstResponse = await push(payload);
    const first = await firstResponse.json();
    assertEquals(firstResponse.status, 201);
    assertEquals([first.summary.registered, first.summary.existed, first.results[0].key_masked], [
      1,
      0,
      "sk-…0111",
    ]);
    assert(!JSON.stringify(first).includes("sk-pushed-secret-000111"));
    const secondResponse = await push(payload);
    const second = await secondResponse.json();
    assertEquals([secondResponse.status, second.summary.registered, second.summary.existed], [200, 0, 1]);
    assertEquals(second.results[0].status, "exists");
    const bad = await push({ keys: [{ provider: "openai", key: "x" }] });
    const rejected = await bad.json();
    assertEquals([bad.status, rejected.results[0].status], [200, "rejected"]);
    assertEquals(rejected.results[0].error, "key is shorter than 16 characters");
    const empty = await push({ keys: [] });
    assertEquals([empty.status, (await empty.json()).error.field], [400, "keys"]);
    const state = await t.json("/dashboard/api/v2/state/inventory-keys?provider=openai");
    assertEquals((state.body.data as Json).total, 1);
    assert(!JSON.stringify(state.body).includes("sk-pushed-secret-000111"));
    const stored = t.gw.runtime.control.store.db.prepare("SELECT key_value FROM upstream_keys").get() as {
      key_value: string;
    };
    assert(!stored.key_value.includes("sk-pushed-secret"), "stored sealed");
  } finally {
    Deno.env.delete("INVENTORY_PUSH_TOKEN");
  }
});

Deno.test("no dashboard response contains an upstream key or a DB key plaintext", async () => {
  await using t = await setupDashboard();
  const created = await t.json("/dashboard/api/v2/keys", body("POST", { name: "ci" }));
  const plaintext = created.body.plaintext as string;
  await t.json(
    "/dashboard/api/providers",
    body("POST", {
      id: "acct-s",
      prefix: "s",
      api_type: "messages_native",
      base_url: "http://127.0.0.1:9",
      api_key: "very-secret-upstream-4242",
    }),
  );
  const secrets = ["upstream-key-acct-a", "very-secret-upstream-4242", plaintext];
  const paths = [
    "/dashboard/api/v2/state/overview",
    "/dashboard/api/v2/state/providers",
    "/dashboard/api/v2/state/keys",
    "/dashboard/api/v2/state/routing",
    "/dashboard/api/v2/state/settings",
    "/dashboard/api/v2/state/tools",
    "/dashboard/api/v2/state/budgets",
    "/dashboard/api/v2/state/combos",
    "/dashboard/api/me",
  ];
  for (const path of paths) {
    const text = await (await t.api(path)).text();
    for (const secret of secrets) assert(!text.includes(secret), `${path} leaks ${secret.slice(0, 6)}…`);
  }
  const update = await (await t.api("/dashboard/api/providers/acct-s", body("PUT", { models: ["m"] })))
    .text();
  assert(!update.includes("very-secret-upstream-4242"));
});
