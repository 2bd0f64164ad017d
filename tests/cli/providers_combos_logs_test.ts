/**
 * `gateway providers list|add|update|remove|test`, `gateway combos list|set|remove` and `gateway logs tail`,
 * run in-process on a real home (and the gateway's own database for logs), through the feature services.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatChunk, chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { cli } from "../helpers/cli.ts";
import { chatProvidersYaml, homeDatabaseEnv, startTestGateway } from "../helpers/gateway.ts";
import { sse, startMockUpstream } from "../helpers/mock_upstream.ts";
import { tempHome } from "../helpers/temp_home.ts";

Deno.test("providers add, list, update and remove through the provider service, with --json and clear errors", async () => {
  const home = tempHome();
  const config = ["--config", home.configPath];
  try {
    const added = await cli([
      "providers",
      "add",
      "local",
      "--prefix",
      "loc",
      "--type",
      "chat_compat",
      "--base-url",
      "http://127.0.0.1:9/v1/",
      "--api-key-env",
      "LOCAL_KEY",
      "--models",
      "m1, m2",
      "--json",
      ...config,
    ], { LOCAL_KEY: "sk-local-secret-123456" });
    assertEquals(added.code, 0, added.err.join("\n"));
    assertEquals(JSON.parse(added.out[0]), {
      id: "local",
      prefix: "loc",
      api_type: "chat_compat",
      base_url: "http://127.0.0.1:9/v1",
      enabled: true,
      models: ["m1", "m2"],
    });
    const listed = await cli(["providers", "list", ...config]);
    assertEquals(listed.code, 0);
    assertStringIncludes(listed.out[0], "local");
    assert(!listed.out.join("\n").includes("sk-local-secret"), "a list never prints a credential");

    const updated = await cli([
      "providers",
      "update",
      "local",
      "--models",
      "m3",
      "--disable",
      "--json",
      ...config,
    ]);
    assertEquals(updated.code, 0, updated.err.join("\n"));
    assertEquals([JSON.parse(updated.out[0]).models, JSON.parse(updated.out[0]).enabled], [["m3"], false]);

    const badUrl = await cli([
      "providers",
      "add",
      "x",
      "--prefix",
      "x",
      "--type",
      "chat_compat",
      "--base-url",
      "ftp://h",
      ...config,
    ]);
    assertEquals([badUrl.code, badUrl.err], [2, [
      "gateway: providers add: --base-url must be an http(s) URL",
    ]]);
    const noType = await cli([
      "providers",
      "add",
      "x",
      "--prefix",
      "x",
      "--base-url",
      "http://127.0.0.1:9",
      ...config,
    ]);
    assertEquals(noType.code, 2);
    assertStringIncludes(noType.err[0], "gateway: providers add: --type must be one of chat_compat, ");
    const twice = await cli([
      "providers",
      "add",
      "local",
      "--prefix",
      "l2",
      "--type",
      "chat_compat",
      "--base-url",
      "http://127.0.0.1:9",
      ...config,
    ]);
    assertEquals([twice.code, twice.err], [2, ['gateway: id: a provider with id "local" already exists']]);
    const nothing = await cli(["providers", "update", "local", ...config]);
    assertEquals(nothing.code, 2);
    assertStringIncludes(nothing.err[0], "nothing to change");
    const missing = await cli(["providers", "remove", "nope", ...config]);
    assertEquals([missing.code, missing.err], [1, ['gateway: Provider "nope" does not exist']]);

    assertEquals((await cli(["providers", "remove", "local", ...config])).out, ["Removed provider local"]);
    assertEquals(JSON.parse((await cli(["providers", "list", "--json", ...config])).out[0]), []);
  } finally {
    home.cleanup();
  }
});

Deno.test("providers test probes the model, or the model list when none is listed; a failure exits 1 without the key", async () => {
  const mock = await startMockUpstream();
  const home = tempHome();
  const config = ["--config", home.configPath];
  try {
    const add = (id: string, models: string) =>
      cli([
        "providers",
        "add",
        id,
        "--prefix",
        id,
        "--type",
        "chat_compat",
        "--base-url",
        `${mock.url}/v1`,
        "--api-key",
        "sk-probe-secret-abcdef",
        ...(models ? ["--models", models] : []),
        ...config,
      ]);
    assertEquals((await add("withmodel", "m1")).code, 0);
    assertEquals((await add("bare", "")).code, 0);
    mock.script({ json: chatCompletion("pong") });
    const ok = await cli(["providers", "test", "withmodel", "--json", ...config]);
    assertEquals(ok.code, 0, ok.out.join("\n"));
    assertEquals([JSON.parse(ok.out[0]).ok, JSON.parse(ok.out[0]).model], [true, "m1"]);
    assertEquals(mock.requests.at(-1)?.path, "/v1/chat/completions");

    mock.script({ json: { object: "list", data: [{ id: "a" }, { id: "b" }] } });
    const listed = await cli(["providers", "test", "bare", ...config]);
    assertEquals(listed.code, 0, listed.out.join("\n"));
    assertStringIncludes(listed.out[0], "2 models");
    assertEquals(mock.requests.at(-1)?.path, "/v1/models");

    mock.script({ json: { error: { message: "bad key sk-probe-secret-abcdef" } }, status: 401 });
    const failed = await cli(["providers", "test", "withmodel", ...config]);
    assertEquals(failed.code, 1);
    assertStringIncludes(failed.out[0], "FAILED withmodel m1: 401");
    assert(!failed.out[0].includes("sk-probe-secret"), failed.out[0]);
  } finally {
    home.cleanup();
    await mock.close();
  }
});

Deno.test("combos set creates then replaces, list shows the chain, remove deletes; bad entries are refused", async () => {
  const home = tempHome();
  const config = ["--config", home.configPath];
  try {
    const created = await cli(["combos", "set", "smart", "a/m1", "b/m2", ...config]);
    assertEquals([created.code, created.out], [0, ["Created combo smart: a/m1 → b/m2"]]);
    const replaced = await cli(["combos", "set", "smart", "c/m3", "--json", ...config]);
    assertEquals(JSON.parse(replaced.out[0]).models, ["c/m3"]);
    const listed = await cli(["combos", "list", "--json", ...config]);
    assertEquals(JSON.parse(listed.out[0]).map((c: { name: string }) => c.name), ["smart"]);
    const bad = await cli(["combos", "set", "other", "no-prefix", ...config]);
    assertEquals([bad.code, bad.err], [2, ["gateway: models.0: each entry must be <prefix>/<model>"]]);
    const empty = await cli(["combos", "set", "other", ...config]);
    assertEquals([empty.code, empty.err], [2, ["gateway: models: needs at least one <prefix>/<model>"]]);
    assertEquals((await cli(["combos", "remove", "smart", ...config])).out, ["Removed combo smart"]);
    assertEquals((await cli(["combos", "list", ...config])).out[0].startsWith("No combos"), true);
  } finally {
    home.cleanup();
  }
});

Deno.test("logs tail follows the gateway's requests, filtered by status, model and key, with --last and --json", async () => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }]));
  const env = homeDatabaseEnv(gw.dir);
  const config = ["--config", gw.configPath];
  const ask = async (model = "p/m1") =>
    await (await post(`${gw.url}/v1/chat/completions`, { model, messages: [{ role: "user", content: "x" }] }))
      .text();
  try {
    mock.script({ json: chatCompletion("earlier") });
    await ask();
    gw.runtime.writer.flush();
    const recent = await cli(["logs", "tail", "--last", "1", "--count", "1", "--json", ...config], env);
    assertEquals(recent.code, 0, recent.err.join("\n"));
    assertEquals([JSON.parse(recent.out[0]).status, JSON.parse(recent.out[0]).model], [200, "p/m1"]);

    // Followers start at the end: only what finishes from now on, and only what matches.
    const failures = cli(["logs", "tail", "--status", "5xx", "--count", "1", "--json", ...config], env);
    const other = cli(["logs", "tail", "--model", "p/m2", "--key", "none", "--count", "1", ...config], env);
    mock.script({ json: chatCompletion("fine") });
    await ask();
    mock.script({ json: { error: { message: "upstream down" } }, status: 500 });
    await ask();
    mock.script({
      chunks: sse(chatChunk({ role: "assistant", content: "m2 says hi" }), chatChunk({}, "stop"), "[DONE]"),
    });
    await ask("p/m2");
    const failed = await failures;
    assertEquals(failed.code, 0, failed.err.join("\n"));
    const row = JSON.parse(failed.out[0]);
    assertEquals([row.status, row.chain.map((a: { status: number }) => a.status)], [503, [500]]);
    const m2 = await other;
    assertEquals(m2.out.length, 1);
    assertStringIncludes(m2.out[0], "p/m2");
    assertStringIncludes(m2.out[0], "(no key)");

    const bad = await cli(["logs", "tail", "--status", "oops", ...config], env);
    assertEquals([bad.code, bad.err], [2, [
      'gateway: status: status must be 1xx, 2xx, 3xx, 4xx, 5xx or 0 (got "oops")',
    ]]);
    const unknownKey = await cli(["logs", "tail", "--key", "laptop", ...config], env);
    assertEquals(unknownKey.code, 2);
    assertStringIncludes(unknownKey.err[0], 'no key is named "laptop"');
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("providers add and update take the Azure API version and deployments; bad ones name their flag", async () => {
  const home = tempHome();
  const run = (line: string) => cli([...line.split(" "), "--config", home.configPath]);
  try {
    const added = await run(
      "providers add az --prefix az --type azure_openai --base-url https://contoso.openai.azure.com " +
        "--azure-deployments gpt-4o=prod-4o --json",
    );
    assertEquals(added.code, 0, added.err.join("\n"));
    assertEquals(JSON.parse(added.out[0]).azure, { api_version: "v1", deployments: { "gpt-4o": "prod-4o" } });
    const updated = await run("providers update az --azure-api-version 2024-10-21 --json");
    assertEquals(updated.code, 0, updated.err.join("\n"));
    assertEquals(JSON.parse(updated.out[0]).azure, {
      api_version: "2024-10-21",
      deployments: { "gpt-4o": "prod-4o" },
    });
    const bad = await run("providers update az --azure-deployments gpt-4o");
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.err[0], "--azure-deployments");
    const other = await run(
      "providers add plain --prefix plain --type chat_compat --base-url http://127.0.0.1:9/v1 --azure-api-version v1",
    );
    assertEquals(other.code, 2, other.err.join("\n"));
    assertStringIncludes(other.err[0], "Azure");
  } finally {
    home.cleanup();
  }
});
