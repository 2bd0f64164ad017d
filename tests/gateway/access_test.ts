import { createKey, revokeKey } from "../../src/features/keys/service.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { cli } from "../helpers/cli.ts";
import {
  chatProvidersYaml,
  homeDatabaseEnv,
  openHomeStore,
  startTestGateway,
  type TestGateway,
} from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

const ask = { messages: [{ role: "user", content: "hi" }] };
const COMBOS = `combos:
  - name: duo
    models: [p/m1, q/m2]
`;

interface Env {
  mock: MockUpstream;
  gw: TestGateway;
  key(allowed?: string[]): string;
  [Symbol.asyncDispose](): Promise<void>;
}

async function env(extra = "", requireKey = true): Promise<Env> {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const yaml = chatProvidersYaml(
    [
      { id: "pa", prefix: "p", url: mock.url, models: ["m1", "m3"] },
      { id: "qa", prefix: "q", url: mock.url, models: ["m2"] },
    ],
    `${COMBOS}server:\n  require_api_key: ${requireKey}\napi_keys:\n  - key: static-secret-1\n    client_key_label: ci\n${extra}`,
  );
  const gw = await startTestGateway(yaml);
  return {
    mock,
    gw,
    key(allowed = []) {
      // Active key names are unique.
      const created = createKey(gw.runtime.control.store, {
        name: `k${gw.runtime.control.store.keys.list().length + 1}`,
        canLogin: true,
        allowedModels: allowed,
      }, Date.now());
      gw.runtime.control.reload();
      return created.plaintext;
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

Deno.test("require_api_key: every credential method works; missing and unknown keys get the spec's 401", async () => {
  await using t = await env();
  const key = t.key();
  const url = `${t.gw.url}/v1/chat/completions`;
  const body = { model: "p/m1", ...ask };
  const methods: Record<string, string>[] = [
    { authorization: `Bearer ${key}` },
    { "x-api-key": key },
    { "x-goog-api-key": key },
  ];
  for (const headers of methods) {
    assertEquals((await post(url, body, headers)).status, 200, JSON.stringify(headers));
  }
  assertEquals((await post(`${url}?key=${key}`, body)).status, 200);
  assertEquals((await post(url, body, { authorization: "Bearer static-secret-1" })).status, 200);
  // The spec's body cannot tell a missing key from a wrong one; the RFC 6750 challenge beside it does.
  const challenges = [
    [{}, /^Bearer realm="gateway"$/],
    [{ authorization: "Bearer sk-gateway-wrong" }, /^Bearer realm="gateway", error="invalid_token", /],
  ] as const;
  for (const [headers, challenge] of challenges) {
    const response = await post(url, body, headers);
    assertEquals(response.status, 401);
    assert(challenge.test(response.headers.get("www-authenticate") ?? ""), JSON.stringify(headers));
    assertEquals(await response.json(), { detail: "Invalid API key" });
  }
  const models = await fetch(`${t.gw.url}/v1/models`);
  assertEquals(models.status, 401);
  await models.body?.cancel();
});

Deno.test("health and version need no key even when keys are required", async () => {
  await using t = await env();
  assertEquals(await (await fetch(`${t.gw.url}/v1/health`)).json(), { status: "ok" });
  assertEquals((await (await fetch(`${t.gw.url}/api/version`)).json()).version, "3.0.0");
});

Deno.test("a revoked key gets 401", async () => {
  await using t = await env();
  const key = t.key();
  revokeKey(t.gw.runtime.control.store, 1, Date.now());
  t.gw.runtime.control.reload();
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", ...ask }, {
    authorization: `Bearer ${key}`,
  });
  assertEquals(response.status, 401);
  assertEquals(await response.json(), { detail: "Invalid API key" });
});

Deno.test("a model outside the allowlist gets 403 model_not_allowed in the client's format", async () => {
  await using t = await env();
  const key = t.key(["p/m1"]);
  const chat = await post(`${t.gw.url}/v1/chat/completions`, { model: "q/m2", ...ask }, {
    authorization: `Bearer ${key}`,
  });
  assertEquals(chat.status, 403);
  assertEquals((await chat.json()).error.type, "model_not_allowed");
  const messages = await post(`${t.gw.url}/v1/messages`, { model: "q/m2", max_tokens: 5, ...ask }, {
    "x-api-key": key,
  });
  assertEquals(messages.status, 403);
  const body = await messages.json();
  assertEquals([body.type, body.error.type], ["error", "model_not_allowed"]);
  assertEquals(t.mock.requests.length, 0);
});

Deno.test("allowlist rules: exact ids, <prefix>/*, and combos granting their members", async () => {
  await using t = await env();
  const cases: [string[], string, number][] = [
    [["p/m1"], "p/m1", 200],
    [["p/m1"], "p/m3", 403],
    [["p/*"], "p/m3", 200],
    [["p/*"], "q/m2", 403],
    [["duo"], "duo", 200],
    [["duo"], "p/m1", 403],
    [["p"], "p/m1", 403],
  ];
  for (const [allowed, model, status] of cases) {
    const key = t.key(allowed);
    const response = await post(`${t.gw.url}/v1/chat/completions`, { model, ...ask }, {
      authorization: `Bearer ${key}`,
    });
    assertEquals(response.status, status, `${allowed} → ${model}`);
    await response.body?.cancel();
  }
});

Deno.test("GET /v1/models lists provider models and combos, filtered by the key's allowlist", async () => {
  await using t = await env();
  const all =
    await (await fetch(`${t.gw.url}/v1/models`, { headers: { authorization: "Bearer static-secret-1" } }))
      .json();
  assertEquals(all.object, "list");
  assertEquals(all.data, [
    { id: "p/m1", object: "model", created: 0, owned_by: "pa", kind: "chat" },
    { id: "p/m3", object: "model", created: 0, owned_by: "pa", kind: "chat" },
    { id: "q/m2", object: "model", created: 0, owned_by: "qa", kind: "chat" },
    { id: "duo", object: "model", created: 0, owned_by: "combo", kind: "chat" },
  ]);
  const key = t.key(["p/*"]);
  const scoped = await (await fetch(`${t.gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } }))
    .json();
  assertEquals(scoped.data.map((m: { id: string }) => m.id), ["p/m1", "p/m3"]);
  const tags = await (await fetch(`${t.gw.url}/api/tags?key=${key}`)).json();
  assertEquals(tags.models.map((m: { name: string }) => m.name), ["p/m1", "p/m3"]);
  const show = await post(`${t.gw.url}/api/show`, { model: "q/m2" }, { authorization: `Bearer ${key}` });
  assertEquals(show.status, 404);
  await show.body?.cancel();
  const anthropic = await (await fetch(`${t.gw.url}/v1/models`, {
    headers: { "x-api-key": key, "anthropic-version": "2023-06-01" },
  })).json();
  assertEquals(anthropic.data[0].type, "model");
  assertEquals(anthropic.has_more, false);
});

Deno.test("a running gateway picks up keys and settings changed by the CLI while it runs", async () => {
  await using t = await env();
  const dbEnv = homeDatabaseEnv(t.gw.dir);
  const created = await cli(
    ["keys", "create", "--name", "late", "--json", "--config", t.gw.configPath],
    dbEnv,
  );
  const key = JSON.parse(created.out[0]).key;
  // The gateway polls the database for changes (every 200 ms here); each poll that finds one reloads.
  const answers = async (headers: Record<string, string>) => {
    const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", ...ask }, headers);
    await response.body?.cancel();
    return response.status === 200;
  };
  await waitFor(() => answers({ authorization: `Bearer ${key}` }), {
    what: "the key created by the CLI to be accepted",
    intervalMs: 100,
  });
  await cli(["settings", "set", "server_require_api_key", "false", "--config", t.gw.configPath], dbEnv);
  await waitFor(() => answers({}), { what: "a request without a key to be answered", intervalMs: 100 });
});

Deno.test("graceful shutdown lets an in-flight request finish and flushes its usage row", async () => {
  const mock = await startMockUpstream();
  // The upstream answers only once the gateway has begun shutting down.
  let release = () => {};
  const shutdownBegun = new Promise<void>((resolve) => release = resolve);
  mock.script({
    handler: async () => {
      await shutdownBegun;
      return Response.json(chatCompletion("slow but fine"));
    },
  });
  const dir = Deno.makeTempDirSync();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "pa", prefix: "p", url: mock.url }]), { dir });
  try {
    const inFlight = post(`${gw.url}/v1/chat/completions`, { model: "p/m1", ...ask });
    await waitFor(() => mock.requests.length === 1, { what: "the request at the upstream" });
    const closing = gw.close();
    release();
    const response = await inFlight;
    assertEquals((await response.json()).choices[0].message.content, "slow but fine");
    await closing;
    const store = openHomeStore(dir);
    assertEquals(Number((store.db.prepare("SELECT count(*) AS n FROM usage").get() as { n: number }).n), 1);
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
    await mock.close();
  }
});

Deno.test("cost follows the cache invariant: uncached input, cache reads and output at their own rates", async () => {
  await using t = await env(
    "pricing:\n  m1:\n    input_per_mtok: 1\n    output_per_mtok: 2\n    cache_creation_per_mtok: 1.25\n    cache_read_per_mtok: 0.5\n",
    false,
  );
  t.mock.script({
    json: chatCompletion("cached", { prompt_tokens: 1000, completion_tokens: 100 }, {
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 100,
        total_tokens: 1100,
        prompt_tokens_details: { cached_tokens: 400 },
      },
    }),
  });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", ...ask })).status, 200);
  const [row] = await usageRows(t.gw);
  assertEquals([row.input_tokens, row.cache_read_tokens, row.output_tokens], [1000, 400, 100]);
  assert(Math.abs(Number(row.cost) - (600 * 1 + 400 * 0.5 + 100 * 2) / 1e6) < 1e-12, `cost ${row.cost}`);
});

Deno.test("a daily budget crossing its limit answers 429 budget_exceeded with Retry-After to midnight", async () => {
  await using t = await env("pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n", false);
  t.gw.runtime.control.store.budgets.set(null, 0.01, 80, Date.now());
  t.gw.runtime.control.reload();
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", ...ask })).status, 200);
  const blocked = await post(`${t.gw.url}/v1/chat/completions`, { model: "p/m1", ...ask });
  assertEquals(blocked.status, 429);
  const retryAfter = Number(blocked.headers.get("retry-after"));
  assert(retryAfter >= 1 && retryAfter <= 86400, `retry-after ${retryAfter}`);
  const body = await blocked.json();
  assertEquals(body.error.type, "budget_exceeded");
  assertEquals(body.error.daily_limit, 0.01);
  assertEquals(body.error.today_spend, 0.015);
  assertStringIncludes(body.error.message, "daily budget");
  assertEquals(t.mock.requests.length, 1);
});

Deno.test("round_robin combos rotate members, staying combo_sticky_limit requests on each", async () => {
  await using t = await env("", false);
  const store = t.gw.runtime.control.store;
  store.settings.set("combo_strategy", "round_robin");
  store.settings.set("combo_sticky_limit", "2");
  t.gw.runtime.control.reload();
  for (let i = 0; i < 5; i++) {
    const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "duo", ...ask });
    await response.body?.cancel();
  }
  assertEquals(t.mock.requests.map((r) => r.body.model), ["m1", "m1", "m2", "m2", "m1"]);
  store.settings.set("combo_sticky_limit", "1");
  t.gw.runtime.control.reload();
  t.mock.requests.length = 0;
  for (let i = 0; i < 3; i++) {
    await (await post(`${t.gw.url}/v1/chat/completions`, { model: "duo", ...ask })).body?.cancel();
  }
  assertEquals(t.mock.requests.length, 3);
  assert(t.mock.requests[0].body.model !== t.mock.requests[1].body.model, "limit 1 rotates every request");
});

Deno.test("fallback combos try members in order", async () => {
  await using t = await env("", false);
  t.mock.script({ json: {}, status: 500 }, { json: chatCompletion("second member") });
  const response = await post(`${t.gw.url}/v1/chat/completions`, { model: "duo", ...ask });
  assertEquals((await response.json()).choices[0].message.content, "second member");
  assertEquals(t.mock.requests.map((r) => r.body.model), ["m1", "m2"]);
});
