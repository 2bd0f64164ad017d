/** The backup download: a plain GET names every credential as a ${VARIABLE}; include_secrets=true has the plaintext. */
import { parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { loadSecretBox, seedFromConfig, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { ADMIN_KEY } from "./dashboard_helpers.ts";

const BLOB = JSON.stringify({ access_token: "goog-access-91c2", refresh_token: "goog-refresh-44d0" });
const SECRETS = [
  ADMIN_KEY,
  "upstream-key-acct-a",
  "upstream-key-acct-dot-a",
  "goog-access-91c2",
  "goog-refresh-44d0",
  "app-secret-7f3a",
];

/** Three providers: two whose ids differ only in punctuation, one subscription with an OAuth client secret. */
const YAML = `providers:
  - id: acct-a
    prefix: p
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: upstream-key-acct-a
    models: [m1]
  - id: acct.a
    prefix: q
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: upstream-key-acct-dot-a
    models: [m2]
  - id: gemini-cli
    prefix: g
    api_type: cli_oauth
    base_url: https://cloudcode-pa.googleapis.com
    api_key: '${BLOB}'
    models: [gemini-2.5-pro]
    oauth: {client_id: app-id, client_secret: app-secret-7f3a}
  - id: free
    prefix: f
    api_type: free_tier
    base_url: http://127.0.0.1:9/v1
    models: [m3]
api_keys:
  - key: ${ADMIN_KEY}
    client_key_label: admin
`;

function download(gw: TestGateway, query = "") {
  return fetch(`${gw.url}/dashboard/api/export${query}`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
}

/** Loads exported YAML in a fresh home with `env`, seeds it, and returns what was stored per provider. */
function loadBack(yaml: string, env: Record<string, string>) {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-export-" });
  try {
    const paths = resolveHomePaths(`${dir}/config.yaml`, {});
    const config = parseConfig(yaml, paths, (name) => env[name]);
    const box = loadSecretBox(paths.secretKeyPath, undefined);
    const store = Store.open(paths.dbPath, box);
    try {
      seedFromConfig(store.db, config, box, Date.now());
      return store.providers.list().map((p) => [p.id, p.apiKey, p.oauth?.clientSecret ?? null]);
    } finally {
      store.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("export: a plain GET answers 200 with each credential as a ${VARIABLE} named after its provider", async () => {
  const gw = await startTestGateway(YAML);
  try {
    const response = await download(gw);
    assertEquals(response.status, 200);
    assertEquals(response.headers.get("content-type"), "text/yaml; charset=utf-8");
    assertEquals(response.headers.get("cache-control"), "private, no-store");
    const yaml = await response.text();
    for (const secret of SECRETS) {
      assert(!yaml.includes(secret), `the plain export does not contain ${secret}`);
    }
    assertStringIncludes(yaml, "api_key: ${ACCT_A_API_KEY}\n");
    assertStringIncludes(
      yaml,
      "api_key: ${ACCT_A_API_KEY_2}\n",
      "ids that differ in punctuation get distinct names",
    );
    assertStringIncludes(yaml, "api_key: ${GEMINI_CLI_API_KEY}\n");
    assertStringIncludes(yaml, "client_secret: ${GEMINI_CLI_CLIENT_SECRET}\n");
    const header = yaml.split("\n").filter((line) => line.startsWith("#   ")).map((line) => line.trim());
    assertEquals(header, [
      "#   ACCT_A_API_KEY  (provider acct-a, api_key)",
      "#   ACCT_A_API_KEY_2  (provider acct.a, api_key)",
      "#   GEMINI_CLI_API_KEY  (provider gemini-cli, api_key)",
      "#   GEMINI_CLI_CLIENT_SECRET  (provider gemini-cli, oauth.client_secret)",
    ], "the header lists every variable to set, and a provider without a key needs none");
  } finally {
    await gw.stop();
  }
});

Deno.test("export: the plain YAML with its variables set loads back to the same credentials", async () => {
  const gw = await startTestGateway(YAML);
  try {
    const yaml = await (await download(gw)).text();
    const loaded = loadBack(yaml, {
      ACCT_A_API_KEY: "upstream-key-acct-a",
      ACCT_A_API_KEY_2: "upstream-key-acct-dot-a",
      GEMINI_CLI_API_KEY: BLOB,
      GEMINI_CLI_CLIENT_SECRET: "app-secret-7f3a",
    });
    assertEquals(loaded, [
      ["acct-a", "upstream-key-acct-a", null],
      ["acct.a", "upstream-key-acct-dot-a", null],
      ["gemini-cli", BLOB, "app-secret-7f3a"],
      ["free", "", null],
    ]);
    let unset = "";
    try {
      loadBack(yaml, {});
    } catch (error) {
      unset = String(error);
    }
    assertStringIncludes(unset, "environment variable ACCT_A_API_KEY is not set");
  } finally {
    await gw.stop();
  }
});

Deno.test("export: include_secrets=true still gives the plaintext credentials", async () => {
  const gw = await startTestGateway(YAML);
  try {
    const response = await download(gw, "?include_secrets=true");
    assertEquals(response.status, 200);
    const yaml = await response.text();
    assertStringIncludes(yaml, "# Contains plaintext upstream credentials.");
    assertStringIncludes(yaml, "api_key: upstream-key-acct-a\n");
    assertStringIncludes(yaml, "client_secret: app-secret-7f3a");
    assert(!yaml.includes("${"), "no variable references when the plaintext is asked for");
  } finally {
    await gw.stop();
  }
});
