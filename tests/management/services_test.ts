import { parseConfig } from "../../src/config/mod.ts";
import { Management } from "../../src/features/mod.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { openDatabase, SecretBox, seedFromConfig, Store, type UsageRow } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { tempHome } from "../helpers/temp_home.ts";

const YAML = `server:
  require_api_key: true
  drain_timeout_s: 5
  trusted_proxies: [10.0.0.0/8]
limits:
  max_connections: 7
  first_content_timeout_s: 45
providers:
  - id: acct-a
    prefix: a
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: sk-upstream-secret-a
    models: [m1]
combos:
  - name: fast
    models: [a/m1]
`;

/** Management over a fresh in-memory store seeded from YAML, counting reloads. */
function setup(yaml = YAML) {
  const home = tempHome(yaml);
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32).fill(3)));
  seedFromConfig(store.db, home.config, store.box, 1_000);
  let reloads = 0;
  let clock = Date.UTC(2026, 10, 25, 12);
  const manage = new Management({
    store,
    config: home.config,
    now: () => clock,
    env: () => undefined,
    reload: () => reloads++,
  });
  return {
    manage,
    store,
    home,
    reloads: () => reloads,
    advance: (ms: number) => clock += ms,
    [Symbol.dispose]() {
      store.close();
      home.cleanup();
    },
  };
}

/** The field a management error names, as data. */
function fieldOf(fn: () => unknown): { field: string | undefined; status: number; message: string } {
  const error = assertThrows(fn, GatewayError);
  return { field: error.field, status: error.status, message: error.message };
}

Deno.test("Management: every change writes through the store and reloads once", () => {
  using t = setup();
  const { manage } = t;
  manage.providers.create({
    id: "acct-b",
    prefix: "b",
    apiType: "responses_native",
    baseUrl: "http://127.0.0.1:9/v1",
    apiKey: " sk-b ",
    models: ["m2"],
    enabled: true,
  });
  manage.combos.update("fast", { models: ["a/m1", "b/m2"] });
  manage.pricing.set("b/m2", {
    inputPerMtok: 1,
    outputPerMtok: 2,
    cacheCreationPerMtok: 0,
    cacheReadPerMtok: 0,
  });
  manage.settings.apply({ combo_strategy: "round_robin" });
  assertEquals(t.reloads(), 4);
  assertEquals(t.store.providers.list().find((p) => p.id === "acct-b")?.apiKey, "sk-b", "key trimmed");
  assertEquals(t.store.combos.list()[0].models, ["a/m1", "b/m2"]);
  assertEquals(t.store.settings.all().get("combo_strategy"), "round_robin");
});

Deno.test("Management: field errors name the field as data and change nothing", () => {
  using t = setup();
  const { manage } = t;
  assertEquals(
    fieldOf(() => manage.providers.update("acct-a", { prefix: "fast" })).field,
    "prefix",
    "a provider prefix may not shadow a combo, on update as on create",
  );
  const duplicate = fieldOf(() =>
    manage.providers.create({
      id: "acct-a",
      prefix: "z",
      apiType: "chat_compat",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "",
      models: [],
      enabled: true,
    })
  );
  assertEquals([duplicate.field, duplicate.status], ["id", 409]);
  assertEquals(fieldOf(() => manage.combos.create({ name: "a", models: ["a/m1"] })).field, "name");
  assertEquals(fieldOf(() => manage.budgets.set(99, 5)).field, "scope");
  assertEquals(fieldOf(() => manage.budgets.set(null, 0)).field, "daily_limit");
  assertEquals(
    fieldOf(() => manage.keys.create({ name: " ", canLogin: true, allowedModels: [] })).field,
    "name",
  );
  const settings = fieldOf(() =>
    manage.settings.apply({ combo_strategy: "fallback", combo_sticky_limit: 0 })
  );
  assertEquals(settings.field, "combo_sticky_limit");
  assert(!t.store.settings.all().has("combo_strategy"), "one bad value stores none");
  assertEquals(t.reloads(), 0);
});

Deno.test("Management: budget report is the one place status is computed, from stored spend without a gateway", () => {
  using t = setup();
  const { manage } = t;
  const key = manage.keys.create({ name: "dev", canLogin: false, allowedModels: [] }).record;
  manage.budgets.set(null, 10, 50);
  manage.budgets.set(key.id, 2);
  const row: UsageRow = {
    ts: Date.UTC(2026, 10, 25, 11),
    clientFormat: "chat_completions",
    requestModel: "a/m1",
    model: "m1",
    providerId: "acct-a",
    accountId: "acct-a",
    clientKeyId: key.id,
    clientKeyLabel: "dev",
    status: 200,
    inputTokens: 1,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    outputTokens: 1,
    reasoningTokens: 0,
    estimated: false,
    cost: 6,
    priced: true,
    latencyMs: 1,
    streamed: false,
    error: "",
  };
  t.store.usage.insert([row]);
  const stored = manage.budgets.report();
  assertEquals(stored.map((r) => [r.budget.keyId, r.spentToday, r.status]), [
    [null, 6, "warning"],
    [key.id, 6, "exceeded"],
  ]);
  const live = manage.budgets.report((keyId) => keyId === null ? 1 : 0);
  assertEquals(live.map((r) => r.status), ["ok", "ok"], "a running gateway passes its in-memory spend");
});

Deno.test("Management: revoking a key ends its dashboard sessions", () => {
  using t = setup();
  const { manage, store } = t;
  const key = manage.keys.create({ name: "ops", canLogin: true, allowedModels: [] }).record;
  store.sessions.create({
    tokenHash: "h1",
    keyId: key.id,
    staticKeyHash: null,
    createdAt: 1,
    expiresAt: 9e15,
  });
  assertEquals(manage.keys.revoke(key.id).status, "revoked");
  assertEquals(store.sessions.get("h1"), undefined);
  assertEquals(manage.keys.find("ops")?.id, key.id, "a key is found by name");
  assertEquals(manage.keys.find(String(key.id))?.name, "ops", "and by id");
});

Deno.test("Management: export then reset restores the file's providers and keeps keys and budgets", () => {
  using t = setup();
  const { manage, store } = t;
  const key = manage.keys.create({ name: "keep", canLogin: false, allowedModels: [] }).record;
  manage.budgets.set(key.id, 3);
  manage.providers.delete("acct-a");
  manage.combos.delete("fast");
  const exported = manage.configFile.exportYaml();
  assert(!exported.includes("acct-a"), "export shows the database state");
  const reparsed = parseConfig(exported.replace(/^#.*\n/gm, ""), t.home.config.paths, () => undefined);
  assertEquals(reparsed.providers.length, 0);
  assertEquals(reparsed.server, t.home.config.server, "the file-only server keys survive an export");
  assertEquals(reparsed.limits, t.home.config.limits);
  const seeded = manage.configFile.reset();
  assertEquals([seeded.providers, seeded.combos], [1, 1]);
  assertEquals(store.providers.list().map((p) => [p.id, p.apiKey]), [["acct-a", "sk-upstream-secret-a"]]);
  assertEquals(store.keys.list().length, 1);
  assertEquals(store.budgets.list().length, 1);
});

Deno.test("Management: a broken config file makes Reset a 422 on the config field and changes nothing", () => {
  using t = setup();
  Deno.writeTextFileSync(t.home.configPath, "providers: [ {id: x\n");
  const error = fieldOf(() => t.manage.configFile.reset());
  assertEquals([error.field, error.status], ["config", 422]);
  assertEquals(t.store.providers.list().length, 1);
});
