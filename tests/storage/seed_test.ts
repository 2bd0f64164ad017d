import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { openDatabase, SecretBox, seedFromConfig, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const YAML = `providers:
  - id: openai-main
    prefix: openai
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: sk-upstream-secret
    models: [gpt-4o]
combos:
  - name: smart
    models: [openai/gpt-4o]
token_savers:
  caveman: {enabled: true, level: ultra}
pricing:
  my-model: {input_per_mtok: 1, output_per_mtok: 2}
`;

function setup() {
  const config = parseConfig(YAML, resolveHomePaths("/tmp/x/config.yaml", {}), () => undefined);
  const box = new SecretBox(new Uint8Array(32).fill(7));
  const store = new Store(openDatabase(":memory:"), box);
  return { config, box, store };
}

Deno.test("seedFromConfig() imports providers, combos, savers and pricing into empty tables", () => {
  const { config, box, store } = setup();
  const report = seedFromConfig(store.db, config, box, 1000);
  assertEquals(report, { providers: 1, combos: 1, savers: true, pricing: 1 });
  assertEquals(store.providers.list()[0].apiKey, "sk-upstream-secret");
  assertEquals(store.combos.list().map((c) => c.name), ["smart"]);
  assertEquals(store.settings.all().get("saver_caveman_level"), "ultra");
  assertEquals(store.pricing.all()["my-model"].outputPerMtok, 2);
});

Deno.test("seedFromConfig() skips non-empty tables: the database stays authoritative", () => {
  const { config, box, store } = setup();
  seedFromConfig(store.db, config, box, 1000);
  store.combos.delete(store.combos.list()[0].id);
  store.providers.upsert({ ...store.providers.list()[0], models: ["edited"] }, 2000);
  store.settings.set("saver_caveman_level", "lite");
  const again = seedFromConfig(store.db, config, box, 3000);
  assertEquals(again, { providers: 0, combos: 1, savers: false, pricing: 0 });
  assertEquals(store.providers.list()[0].models, ["edited"]);
  assertEquals(store.settings.all().get("saver_caveman_level"), "lite");
});

Deno.test("provider credentials are never stored in plaintext", () => {
  const { config, box, store } = setup();
  seedFromConfig(store.db, config, box, 1000);
  const raw = store.db.prepare("SELECT api_key FROM providers").get() as { api_key: string };
  assert(raw.api_key.startsWith("enc:v1:"), raw.api_key);
  assert(!raw.api_key.includes("sk-upstream-secret"));
});
