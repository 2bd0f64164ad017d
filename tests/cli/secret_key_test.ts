/** A lost, damaged or wrong secret key stops a command with one line and never replaces the key silently. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startGateway } from "../../src/cli/serve.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

const WITH_PROVIDER = `server:
  require_api_key: false
providers:
  - id: acct-a
    prefix: a
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: sk-upstream-secret-value
    models: [m1]
`;

/** A home whose database holds a sealed provider key: a gateway started once seeded it from the YAML. */
async function sealedHome() {
  const home = tempHome(WITH_PROVIDER);
  const args = ["--config", home.configPath];
  const gateway = await startGateway({
    config: home.config,
    port: 0,
    host: "127.0.0.1",
    env: () => undefined,
    now: Date.now,
  });
  await gateway.close();
  return { home, args, keyPath: `${home.dir}/secret.key` };
}

Deno.test("secret key: a missing key file with sealed credentials is one clear line and no new key", async () => {
  const { home, args, keyPath } = await sealedHome();
  try {
    Deno.removeSync(keyPath);
    const result = await cli(["keys", "list", ...args]);
    assertEquals(result.code, 1);
    assertEquals(result.err.length, 1);
    assertStringIncludes(result.err[0], "is missing, but the database holds credentials sealed with it");
    let recreated = true;
    try {
      Deno.statSync(keyPath);
    } catch {
      recreated = false;
    }
    assert(!recreated, "a lost key is never replaced silently");
  } finally {
    home.cleanup();
  }
});

Deno.test("secret key: a truncated key file and a different key are each one clear line", async () => {
  const { home, args, keyPath } = await sealedHome();
  try {
    const original = Deno.readTextFileSync(keyPath);
    Deno.writeTextFileSync(keyPath, original.slice(0, 20));
    const damaged = await cli(["keys", "list", ...args]);
    assertEquals([damaged.code, damaged.err.length], [1, 1]);
    assertStringIncludes(damaged.err[0], "is damaged");
    const other = btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));
    const wrong = await cli(["keys", "list", ...args], { GATEWAY_SECRET_KEY: other });
    assertEquals([wrong.code, wrong.err.length], [1, 1]);
    assertStringIncludes(wrong.err[0], "GATEWAY_SECRET_KEY does not open the credentials");
    Deno.writeTextFileSync(keyPath, original);
    assertEquals((await cli(["keys", "list", ...args])).code, 0, "the restored key works again");
  } finally {
    home.cleanup();
  }
});

Deno.test("secret key: a database with nothing sealed gets a new key file when it has none", async () => {
  const home = tempHome();
  try {
    assertEquals((await cli(["keys", "create", "--name", "a", "--config", home.configPath])).code, 0);
    Deno.removeSync(`${home.dir}/secret.key`);
    assertEquals((await cli(["keys", "list", "--config", home.configPath])).code, 0);
    assertEquals(atob(Deno.readTextFileSync(`${home.dir}/secret.key`).trim()).length, 32);
  } finally {
    home.cleanup();
  }
});
