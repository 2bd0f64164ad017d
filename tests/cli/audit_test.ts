import { assert, assertEquals } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

type Json = Record<string, unknown>;

Deno.test("CLI: every command that changes state writes an audit row as the OS user; reads write none; gateway audit lists them", async () => {
  const home = tempHome();
  const env = { USER: "ops-alice" };
  const run = async (...args: string[]) => {
    const result = await cli([...args, "--config", home.configPath], env);
    assertEquals(result.code, 0, `${args.join(" ")}: ${result.err.join("\n")}`);
    return result.out;
  };
  const audit = async (...filters: string[]) =>
    (await run("audit", "--jsonl", ...filters)).join("\n").split("\n").filter((l) => l !== "").map((l) =>
      JSON.parse(l) as Json
    );
  try {
    const created = await run("keys", "create", "--name", "laptop");
    const plaintext = created[0].split(": ").at(-1)!;
    await run("keys", "update", "1", "--name", "laptop-2");
    await run("budgets", "set", "--daily", "3", "--global");
    await run("settings", "set", "combo_strategy", "round_robin");
    await run("keys", "list");
    await run("budgets", "list");
    await run("keys", "revoke", "1");

    const rows = await audit();
    assertEquals(rows.map((r) => [r.action, r.target]).reverse(), [
      ["keys.create", "keys:1"],
      ["keys.update", "keys:1"],
      ["budgets.create", "budgets:1"],
      ["settings.create", "settings:combo_strategy"],
      ["keys.update", "keys:1"],
    ]);
    for (const r of rows) assertEquals([r.actor, r.actor_kind, r.address], ["ops-alice", "cli", ""]);
    assert(!JSON.stringify(rows).includes(plaintext), "the key's plaintext is not in the audit log");
    const rename = rows[3];
    assertEquals(JSON.parse(rename.before as string).keys["1"].name, "laptop");
    assertEquals(JSON.parse(rename.after as string).keys["1"].name, "laptop-2");
    assertEquals(JSON.parse(rename.after as string).keys["1"].keyHash, "[redacted]");

    // Filters and the CSV export.
    assertEquals((await audit("--action", "keys.")).length, 3);
    assertEquals((await audit("--target", "budgets:1")).map((r) => r.action), ["budgets.create"]);
    assertEquals((await audit("--actor", "someone-else")).length, 0);
    const csv = await run("audit", "--csv", "--limit", "1");
    assertEquals(csv[0].split("\r\n")[0], "id,time,actor,actor_kind,address,action,target,before,after");
    assertEquals(csv[0].split("\r\n").length, 2);
    const bad = await cli(["audit", "--since", "yesterday-ish", "--config", home.configPath], env);
    assertEquals(bad.code, 2, "a malformed filter is a usage error");
    assert(bad.err.join("\n").includes("since"), bad.err.join("\n"));
  } finally {
    home.cleanup();
  }
});
