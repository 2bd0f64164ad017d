import { parseConfig, type ProviderConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { openDatabase, replaceFromConfig, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const box = new SecretBox(new Uint8Array(32).fill(3));

function provider(apiKey: string): ProviderConfig {
  return {
    id: "codex-1",
    prefix: "codex",
    apiType: "responses_oauth",
    baseUrl: "http://127.0.0.1:9/backend-api/codex",
    apiKey,
    models: ["gpt-5"],
    enabled: true,
    oauth: { tokenUrl: "http://127.0.0.1:9/oauth/token" },
  };
}

const blob = (access: string, refresh: string) =>
  JSON.stringify({ access_token: access, refresh_token: refresh });

Deno.test("a rotated credential survives writes of older blobs: edits, config reset, old exports", () => {
  const store = new Store(openDatabase(":memory:"), box);
  store.providers.upsert(provider(blob("a1", "r1")), 1);
  const slot = store.credentials.providerSlot("codex-1");
  store.credentials.saveRotated(slot, blob("a2", "r2"), "r1", 2);
  assertEquals(store.providers.get("codex-1")?.apiKey, blob("a2", "r2"));
  // An edit made from a copy read before the refresh (e.g. the models list) keeps the rotated token.
  store.providers.upsert({ ...provider(blob("a1", "r1")), models: ["gpt-5", "gpt-5-mini"] }, 3);
  const stored = store.providers.get("codex-1")!;
  assertEquals(stored.apiKey, blob("a2", "r2"));
  assertEquals(stored.models, ["gpt-5", "gpt-5-mini"]);
  assertEquals(stored.oauth, { tokenUrl: "http://127.0.0.1:9/oauth/token" });
  // A config reset from the YAML that still holds the first blob.
  const yaml = `providers:
  - id: codex-1
    prefix: codex
    api_type: responses_oauth
    base_url: http://127.0.0.1:9/backend-api/codex
    api_key: '${blob("a1", "r1")}'
    oauth: {token_url: "http://127.0.0.1:9/oauth/token"}
`;
  const config = parseConfig(yaml, resolveHomePaths("/tmp/x/config.yaml", {}), () => undefined);
  replaceFromConfig(store.db, config, box, 4);
  assertEquals(store.providers.get("codex-1")?.apiKey, blob("a2", "r2"));
  // A fresh sign-in (a refresh token never spent) replaces it.
  store.providers.upsert(provider(blob("a9", "r9")), 5);
  assertEquals(store.providers.get("codex-1")?.apiKey, blob("a9", "r9"));
  // Nothing secret in the state table: fingerprints only.
  const raw = JSON.stringify(store.db.prepare("SELECT * FROM credential_state").all());
  assert(!raw.includes("r1") && !raw.includes("a2"), raw);
});

Deno.test("tryLease() lets one holder in until it releases or its lease runs out", () => {
  const store = new Store(openDatabase(":memory:"), box);
  const leases = store.credentials;
  assert(leases.tryLease("client", "p1", 1000, 500));
  assert(!leases.tryLease("client", "p2", 1100, 500));
  assert(leases.tryLease("client", "p1", 1200, 500), "the holder renews");
  assert(leases.tryLease("client", "p2", 1800, 500), "an expired lease is taken over");
  leases.releaseLease("client", "p1");
  assert(!leases.tryLease("client", "p1", 1900, 500), "only the holder releases");
  leases.releaseLease("client", "p2");
  assert(leases.tryLease("client", "p1", 1900, 500));
});
