import { ConfigError, DEFAULT_CONFIG_YAML, parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";

const paths = resolveHomePaths("/tmp/gw/config.yaml", {});
const noEnv = () => undefined;

function errorOf(yaml: string, env: (n: string) => string | undefined = noEnv): string {
  return assertThrows(() => parseConfig(yaml, paths, env), ConfigError).message;
}

Deno.test("parseConfig() accepts the default config and applies defaults", () => {
  const config = parseConfig(DEFAULT_CONFIG_YAML, paths, noEnv);
  assertEquals(config.server, {
    host: "127.0.0.1",
    port: 20128,
    requireApiKey: false,
    drainTimeoutMs: 20_000,
    trustedProxies: [],
    allowPrivateImageUrls: false,
  });
  assertEquals(config.providers, []);
  assertEquals(config.tokenSavers.rtk.enabled, true);
  assertEquals(config.tokenSavers.caveman, { enabled: false, level: "full" });
  assertEquals(config.paths.dbPath, "/tmp/gw/gateway.db");
});

Deno.test("parseConfig() resolves ${VAR} references from the environment", () => {
  const yaml = `providers:
  - id: openai-main
    prefix: openai
    api_type: chat_compat
    base_url: https://api.openai.com/v1/
    api_key: \${OPENAI_KEY}
    models: [gpt-4o]
`;
  const config = parseConfig(yaml, paths, (n) => (n === "OPENAI_KEY" ? "sk-secret" : undefined));
  assertEquals(config.providers[0].apiKey, "sk-secret");
  assertEquals(config.providers[0].baseUrl, "https://api.openai.com/v1");
  assertEquals(config.providers[0].enabled, true);
});

Deno.test("an unset ${VAR} is an error naming the variable, the file and the line", () => {
  const message = errorOf("server:\n  port: 20128\napi_keys:\n  - key: ${MISSING_KEY}\n");
  assertEquals(
    message,
    "/tmp/gw/config.yaml:4: environment variable MISSING_KEY is not set (referenced as ${MISSING_KEY})",
  );
});

Deno.test("malformed YAML names the file and the line", () => {
  const message = errorOf("server:\n  port: 1\nproviders: [\n  {id: a\n");
  assert(message.startsWith("/tmp/gw/config.yaml:"), message);
  assert(message.includes("invalid YAML"), message);
});

Deno.test("an unknown api_type names the key path, the line and the allowed values", () => {
  const message = errorOf(`providers:
  - id: a
    prefix: p
    api_type: magic
    base_url: http://127.0.0.1:1/v1
`);
  assert(
    message.startsWith("/tmp/gw/config.yaml:4: providers[0].api_type: must be one of chat_compat"),
    message,
  );
});

Deno.test("duplicate provider ids are rejected at the second one", () => {
  const entry = (id: string) =>
    `  - id: ${id}\n    prefix: p\n    api_type: chat_compat\n    base_url: http://127.0.0.1:1/v1\n`;
  const message = errorOf(`providers:\n${entry("a")}${entry("b")}${entry("a")}`);
  assertEquals(message, '/tmp/gw/config.yaml:10: providers[2].id: duplicate id "a"');
});

Deno.test("a static key with spaces is rejected", () => {
  const message = errorOf('api_keys:\n  - key: "my secret key"\n');
  assertEquals(message, "/tmp/gw/config.yaml:2: api_keys[0].key: must not contain spaces");
});

Deno.test("a provider's api_key is trimmed, and one with a line break or a lone surrogate is refused naming it", () => {
  const yaml = (key: string) =>
    `providers:\n  - id: a\n    prefix: a\n    api_type: chat_compat\n    base_url: https://x.example/v1\n` +
    `    api_key: ${key}\n`;
  // A key from an environment file written on Windows ends with a CR.
  const config = parseConfig(yaml("${KEY}"), paths, (n) => (n === "KEY" ? "sk-from-env\r" : undefined));
  assertEquals(config.providers[0].apiKey, "sk-from-env");
  assertEquals(
    errorOf(yaml('"sk-a\\nX-Injected: 1"')),
    "/tmp/gw/config.yaml:6: providers[0].api_key: must not contain line breaks or other control characters",
  );
  assertEquals(
    errorOf(yaml('"sk-\\ud800"')),
    "/tmp/gw/config.yaml:6: providers[0].api_key: must be valid Unicode text (it contains a lone surrogate)",
  );
});

Deno.test("a provider's base_url with a user or password is refused naming it", () => {
  const message = errorOf(
    "providers:\n  - id: a\n    prefix: a\n    api_type: chat_compat\n" +
      "    base_url: https://user:sk-secret@x.example/v1\n",
  );
  assertEquals(
    message,
    "/tmp/gw/config.yaml:5: providers[0].base_url: must not contain a user name or password (give the key as api_key)",
  );
});

Deno.test("wrong types and unknown keys are rejected with their path", () => {
  assertEquals(
    errorOf("server:\n  port: eighty\n"),
    "/tmp/gw/config.yaml:2: server.port: Invalid input: expected number, received string",
  );
  assertEquals(errorOf("server:\n  prot: 1\n"), '/tmp/gw/config.yaml:2: server: unknown key "prot"');
  assertEquals(
    errorOf("combos:\n  - name: c\n    models: [gpt-4o]\n"),
    "/tmp/gw/config.yaml:3: combos[0].models[0]: must be <prefix>/<model>",
  );
});

Deno.test("static keys get a label when none is given", () => {
  const config = parseConfig(
    "api_keys:\n  - key: abcdefgh12\n  - key: zyxwvu9876\n    client_key_label: ci\n",
    paths,
    noEnv,
  );
  assertEquals(config.apiKeys.map((k) => k.label), ["static-key-1", "ci"]);
});

Deno.test("Kiro's oauth region, start_url and register_url are read; a region that is not an AWS region is refused", () => {
  const kiro = (oauth: string) =>
    `providers:\n  - id: k\n    prefix: k\n    api_type: cloud_assistant_oauth\n` +
    `    base_url: https://runtime.us-east-1.kiro.dev\n    oauth:\n${oauth}`;
  const config = parseConfig(
    kiro(
      "      region: eu-central-1\n      start_url: https://acme.awsapps.com/start\n" +
        "      register_url: https://oidc.example/client/register\n",
    ),
    paths,
    noEnv,
  );
  assertEquals(config.providers[0].oauth, {
    region: "eu-central-1",
    startUrl: "https://acme.awsapps.com/start",
    registerUrl: "https://oidc.example/client/register",
  });
  const message = errorOf(kiro("      region: evil.example.com/x\n"));
  assert(message.includes("providers[0].oauth.region: must be an AWS region such as eu-central-1"), message);
});

Deno.test("providers[].oauth takes Kiro's region and Google's Cloud project, and names a malformed region", () => {
  const yaml = (oauth: string) =>
    `providers:\n  - id: k\n    prefix: k\n    api_type: cloud_assistant_oauth\n` +
    `    base_url: https://runtime.us-east-1.kiro.dev\n    oauth: ${oauth}\n`;
  const config = parseConfig(yaml("{region: eu-central-1, project: my-project-1}"), paths, noEnv);
  assertEquals(config.providers[0].oauth, { region: "eu-central-1", project: "my-project-1" });
  const message = errorOf(yaml("{region: Frankfurt}"));
  assert(message.includes("region") && message.includes("AWS region such as eu-central-1"), message);
});

Deno.test("a provider's declared model kinds are read, and an unknown kind names the key path and the kinds", () => {
  const provider = (kinds: string) =>
    `providers:\n  - id: r\n    prefix: r\n    api_type: chat_compat\n    base_url: http://127.0.0.1:9/v1\n` +
    `    kinds: ${kinds}\n`;
  const config = parseConfig(provider("{bge-m3-ft: rerank}"), paths, noEnv);
  assertEquals(config.providers[0].kinds, { "bge-m3-ft": "rerank" });
  assertEquals(parseConfig(provider("{}"), paths, noEnv).providers[0].kinds, undefined);
  assertEquals(
    errorOf(provider("{bge-m3-ft: ranker}")),
    "/tmp/gw/config.yaml:6: providers[0].kinds.bge-m3-ft: must be one of chat, embedding, rerank, image, " +
      "transcription, speech",
  );
});
