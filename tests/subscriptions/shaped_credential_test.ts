import type { ProviderConfig } from "../../src/config/mod.ts";
import { KIRO_RUNTIME_URL, kiroHosts } from "../../src/executors/cloud_assistant.ts";
import { Subscriptions } from "../../src/executors/oauth/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

function subscriptions(provider: ProviderConfig): Subscriptions {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32).fill(3)));
  store.providers.upsert(provider, 0);
  const offline = (() => Promise.reject(new Error("no network in this test"))) as typeof fetch;
  return new Subscriptions({ repo: store.credentials, fetcher: offline, now: () => 1_800_000_000_000 });
}

Deno.test("shapedCredential(): a configured Kiro region picks the API hosts over the credential's own", async () => {
  const provider: ProviderConfig = {
    id: "kiro",
    prefix: "kiro",
    apiType: "cloud_assistant_oauth",
    baseUrl: KIRO_RUNTIME_URL,
    apiKey: JSON.stringify({ accessToken: "at", region: "us-east-1", authMethod: "IdC" }),
    models: [],
    enabled: true,
    oauth: { region: "eu-central-1" },
  };
  const blob = await subscriptions(provider).shapedCredential(provider);
  assertEquals(
    kiroHosts(KIRO_RUNTIME_URL, blob.extra)[0].url,
    "https://codewhisperer.eu-central-1.amazonaws.com/generateAssistantResponse",
  );
  const plain = { ...provider, oauth: undefined };
  const own = await subscriptions(plain).shapedCredential(plain);
  assertEquals(
    kiroHosts(KIRO_RUNTIME_URL, own.extra)[0].url,
    "https://codewhisperer.us-east-1.amazonaws.com/generateAssistantResponse",
  );
});

Deno.test("shapedCredential(): a configured Cloud project is used without discovery (no upstream call)", async () => {
  const provider: ProviderConfig = {
    id: "gcli",
    prefix: "gcli",
    apiType: "cli_oauth",
    baseUrl: "http://127.0.0.1:9",
    apiKey: JSON.stringify({ access_token: "at", extra: { project_id: "discovered-long-ago" } }),
    models: [],
    enabled: true,
    oauth: { project: "configured" },
  };
  // The fetcher rejects every call: discovery (or anything else) would make this throw.
  const blob = await subscriptions(provider).shapedCredential(provider);
  assertEquals(blob.extra.project_id, "configured");
  const bare = { ...provider, apiKey: JSON.stringify({ access_token: "at" }) };
  assertEquals((await subscriptions(bare).shapedCredential(bare)).extra.project_id, "configured");
});
