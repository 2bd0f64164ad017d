import { assert, assertEquals } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

const yaml = (baseUrl: string, combos = "") =>
  `server:
  require_api_key: false
providers:
  - id: local
    prefix: local
    api_type: chat_compat
    base_url: ${baseUrl}
    api_key: sk-local-secret-1234
    models: [m1]
${combos}`;

Deno.test("config diff shows YAML edits the database does not serve, and config apply makes them served", async () => {
  const home = tempHome(yaml("http://127.0.0.1:9/v1"));
  const c = ["--config", home.configPath];
  try {
    // A database that was never seeded serves nothing the YAML lists.
    assertEquals((await cli(["config", "diff", "--json", ...c])).out, [
      JSON.stringify([{ kind: "provider", id: "local", change: "yaml_only", fields: [] }]),
    ]);
    const applied = await cli(["config", "apply", ...c]);
    assertEquals(applied.code, 0);
    assertEquals(applied.out, [
      "Applied the YAML: 1 providers, 0 combos, 0 pricing overrides, token saver settings.",
    ]);
    assertEquals((await cli(["config", "diff", ...c])).out, ["The database serves what the YAML says."]);

    // Edited after the first start: a new base URL, another key and a new combo are not in force.
    Deno.writeTextFileSync(
      home.configPath,
      yaml("http://127.0.0.1:10/v1", "combos:\n  - name: duo\n    models: [local/m1]\n").replace(
        "sk-local-secret-1234",
        "sk-local-secret-5678",
      ),
    );
    const diff = await cli(["config", "diff", ...c]);
    assertEquals(diff.out, [
      'provider "local" differs: base_url, api_key (the database\'s values are served)',
      'combo "duo" is in the YAML but not in the database (not served)',
      "Apply the YAML with `gateway config apply`, or change the database in the dashboard.",
    ]);
    assert(!diff.out.join("\n").includes("sk-local"), "a key is named, never shown");

    // doctor says the same, and checks the host the database serves (port 9), not the YAML's (port 10).
    const doctor = await cli(["doctor", "--json", "--timeout", "1", ...c]);
    const report = JSON.parse(doctor.out[0]) as {
      findings: { level: string; area: string; message: string }[];
      warnings: number;
    };
    const config = report.findings.filter((f) => f.area === "config" && f.level === "warn");
    assertEquals(config.map((f) => f.message), [
      'provider "local" differs: base_url, api_key (the database\'s values are served)',
      'combo "duo" is in the YAML but not in the database (not served)',
    ]);
    const upstream = report.findings.find((f) => f.area === "upstream local");
    assert(upstream?.message.includes("127.0.0.1:9"), JSON.stringify(upstream));

    assertEquals((await cli(["config", "apply", ...c])).code, 0);
    assertEquals((await cli(["config", "diff", "--json", ...c])).out, ["[]"]);
  } finally {
    home.cleanup();
  }
});

Deno.test("config without a subcommand prints its help and exits 2; an unknown one is a usage error", async () => {
  const bare = await cli(["config"]);
  assertEquals(bare.code, 2);
  assert(bare.out.join("\n").includes("gateway config diff"));
  const unknown = await cli(["config", "push"]);
  assertEquals(unknown.code, 2);
  assert(unknown.err.join("\n").includes('unknown subcommand "push"'), unknown.err.join("\n"));
});
