import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

Deno.test("keys create prints the key once, then ID, Name, Login and Models", async () => {
  const home = tempHome();
  try {
    const result = await cli(["keys", "create", "--name", "laptop", "--config", home.configPath]);
    assertEquals(result.code, 0);
    assertMatch(result.out[0], /^API key \(shown once, save it now\): sk-gateway-[0-9A-Za-z]{43}$/);
    assertEquals(result.out.slice(1), ["ID: 1", "Name: laptop", "Login: yes", "Role: admin", "Models: all"]);
  } finally {
    home.cleanup();
  }
});

Deno.test("keys create --no-login --models --daily-budget stores scopes and budget", async () => {
  const home = tempHome();
  try {
    const result = await cli([
      "keys",
      "create",
      "--name",
      "ci bot",
      "--no-login",
      "--models",
      "openai/gpt-4o, anthropic/*,smart",
      "--daily-budget",
      "2.5",
      "--config",
      home.configPath,
    ]);
    assertEquals(result.code, 0, result.err.join("\n"));
    assertEquals(result.out.slice(2), [
      "Name: ci bot",
      "Login: no",
      "Role: viewer (no dashboard login)",
      "Models: openai/gpt-4o,anthropic/*,smart",
      "Daily budget: $2.5",
    ]);
    const list = await cli(["keys", "list", "--json", "--config", home.configPath]);
    const [key] = JSON.parse(list.out[0]);
    assertEquals(key.can_login, false);
    assertEquals(key.allowed_models, ["openai/gpt-4o", "anthropic/*", "smart"]);
    assertEquals(key.daily_budget, 2.5);
    assertEquals(key.status, "active");
  } finally {
    home.cleanup();
  }
});

Deno.test("the plaintext key never reaches the database; only its SHA-256 does", async () => {
  const home = tempHome();
  try {
    const result = await cli(["keys", "create", "--name", "a", "--json", "--config", home.configPath]);
    const { key } = JSON.parse(result.out[0]);
    const db = new DatabaseSync(join(home.dir, "gateway.db"));
    const row = db.prepare("SELECT key_hash, prefix FROM api_keys").get() as {
      key_hash: string;
      prefix: string;
    };
    db.close();
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    assertEquals(row.key_hash, digest);
    assert(key.startsWith(row.prefix) && row.prefix.length < 20);
    const bytes = Deno.readFileSync(join(home.dir, "gateway.db"));
    assert(
      !new TextDecoder("latin1").decode(bytes).includes(key),
      "plaintext key found in the database file",
    );
  } finally {
    home.cleanup();
  }
});

Deno.test("keys update and revoke change a key; list shows it", async () => {
  const home = tempHome();
  const c = ["--config", home.configPath];
  try {
    await cli(["keys", "create", "--name", "a", ...c]);
    const updated = await cli(["keys", "update", "1", "--name", "b", "--no-login", "--models", "x/*", ...c]);
    assertEquals(updated.out, ["Updated key 1: name=b login=no models=x/*"]);
    assertEquals((await cli(["keys", "update", "1", "--clear-models", "--daily-budget", "3", ...c])).code, 0);
    assertEquals((await cli(["keys", "revoke", "1", ...c])).out, ["Revoked key 1"]);
    const list = await cli(["keys", "list", ...c]);
    assertStringIncludes(list.out[0], "revoked");
    assertStringIncludes(list.out[0], "models=all");
    assertStringIncludes(list.out[0], "budget=$3");
    const cleared = await cli(["keys", "update", "1", "--clear-budget", "--json", ...c]);
    assertEquals(JSON.parse(cleared.out[0]).daily_budget, null);
  } finally {
    home.cleanup();
  }
});

Deno.test("wrong usage exits 2 with a one-line reason and stores nothing", async () => {
  const home = tempHome();
  const c = ["--config", home.configPath];
  try {
    const cases: [string[], string][] = [
      [["keys", "create"], "gateway: keys create: --name <name> is required"],
      [
        ["keys", "create", "--name", "a", "--daily-budget", "lots"],
        'gateway: keys create: --daily-budget must be a number, got "lots"',
      ],
      [
        ["keys", "create", "--name", "a", "--daily-budget", "-1"],
        "gateway: daily_budget: must be a number greater than 0 (USD)",
      ],
      [
        ["keys", "create", "--name", "a", "--models", "bad model"],
        'gateway: models: "bad model" is not <prefix>/<model>, <prefix>/* or a combo name',
      ],
      [["keys", "create", "--name", "a", "--bogus"], "gateway: keys create: Unknown option '--bogus'"],
      [["keys", "update", "x"], 'gateway: keys update: <id> must be a whole number, got "x"'],
      [["keys", "update", "1"], "gateway: keys update: nothing to change (see gateway keys --help)"],
      [
        ["keys", "frobnicate"],
        'gateway: keys: unknown subcommand "frobnicate" (create, list, update, rotate, revoke)',
      ],
      [["nope"], 'gateway: unknown command "nope" (run gateway --help)'],
    ];
    for (const [args, message] of cases) {
      const result = await cli([...args, ...c]);
      assertEquals(result.code, 2, args.join(" "));
      assertEquals(result.err, [message]);
    }
    const list = await cli(["keys", "list", "--json", ...c]);
    assertEquals(JSON.parse(list.out[0]), []);
  } finally {
    home.cleanup();
  }
});

Deno.test("updating or revoking a missing key exits 1 and says so", async () => {
  const home = tempHome();
  try {
    const result = await cli(["keys", "revoke", "42", "--config", home.configPath]);
    assertEquals(result.code, 1);
    assertEquals(result.err, ["gateway: API key 42 does not exist"]);
  } finally {
    home.cleanup();
  }
});

Deno.test("every command has --help", async () => {
  for (
    const args of [["--help"], ["serve", "--help"], ["config-init", "--help"], ["keys", "--help"], [
      "settings",
      "--help",
    ], ["keys", "create", "--help"]]
  ) {
    const result = await cli(args);
    assertEquals(result.code, 0, args.join(" "));
    assertStringIncludes(result.out.join("\n"), "Usage");
  }
});
