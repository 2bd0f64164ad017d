/**
 * The governance commands: key groups, key limits, group, expiry and rotation, `keys list`'s columns, and
 * budgets of every period and scope with a webhook.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

Deno.test("groups create|list|update|delete, and keys create --rpm --tpm --max-parallel --group --expires", async () => {
  const home = tempHome();
  const run = (...args: string[]) => cli([...args, "--config", home.configPath]);
  try {
    const group = await run(
      "groups",
      "create",
      "--name",
      "team-a",
      "--rpm",
      "100",
      "--models",
      "up/*",
      "--json",
    );
    assertEquals(group.code, 0, group.err.join("\n"));
    assertEquals(JSON.parse(group.out[0]), {
      id: 1,
      name: "team-a",
      rpm: 100,
      tpm: null,
      max_parallel: null,
      allowed_models: ["up/*"],
    });
    const created = await run(
      "keys",
      "create",
      "--name",
      "ci",
      "--rpm",
      "60",
      "--tpm",
      "10000",
      "--max-parallel",
      "2",
      "--group",
      "team-a",
      "--expires",
      "30d",
    );
    assertEquals(created.code, 0, created.err.join("\n"));
    assertStringIncludes(created.out.join("\n"), "Group: team-a");
    assertStringIncludes(created.out.join("\n"), "Limits: rpm=60 tpm=10000 parallel=2");
    const list = JSON.parse((await run("keys", "list", "--json")).out[0]);
    assertEquals(list[0].group, "team-a");
    assertEquals([list[0].rpm, list[0].tpm, list[0].max_parallel], [60, 10000, 2]);
    const expires = Date.parse(list[0].expires_at) - Date.now();
    assert(expires > 29.9 * 86_400_000 && expires <= 30 * 86_400_000, list[0].expires_at);
    assertEquals(list[0].last_used_at, null);
    assertEquals(list[0].period_spend, { period: "day", spent: 0, limit: null });
    // The text listing names role, group, expiry, last use and this period's spend.
    const text = await run("keys", "list");
    assertMatch(
      text.out[0],
      /login\/admin\s+group=team-a\s+expires=\d{4}-\d\d-\d\d\s+last-used=never\s+spend=\$0\.0000\/day/,
    );

    const updated = await run(
      "keys",
      "update",
      "1",
      "--rpm",
      "none",
      "--group",
      "none",
      "--expires",
      "never",
    );
    assertEquals(updated.code, 0, updated.err.join("\n"));
    const after = JSON.parse((await run("keys", "list", "--json")).out[0])[0];
    assertEquals([after.rpm, after.group, after.expires_at], [null, null, null]);
    assertEquals((await run("keys", "update", "1", "--group", "nope")).code, 2);
    assertEquals((await run("keys", "create", "--name", "x", "--rpm", "0")).code, 2);
    assertEquals((await run("keys", "create", "--name", "x", "--expires", "soon")).code, 2);

    assertEquals((await run("groups", "update", "team-a", "--tpm", "5000")).code, 0);
    const groups = JSON.parse((await run("groups", "list", "--json")).out[0]);
    assertEquals([groups[0].rpm, groups[0].tpm, groups[0].keys], [100, 5000, 0]);
    assertEquals((await run("groups", "delete", "team-a")).code, 0);
    assertEquals(JSON.parse((await run("groups", "list", "--json")).out[0]), []);
  } finally {
    home.cleanup();
  }
});

Deno.test("keys rotate prints a new key for the same id; the old one's grace is shown", async () => {
  const home = tempHome();
  const run = (...args: string[]) => cli([...args, "--config", home.configPath]);
  try {
    const { key } = JSON.parse((await run("keys", "create", "--name", "svc", "--json")).out[0]);
    const rotated = await run("keys", "rotate", "1", "--grace", "2h", "--json");
    assertEquals(rotated.code, 0, rotated.err.join("\n"));
    const answer = JSON.parse(rotated.out[0]);
    assertEquals(answer.id, 1);
    assertMatch(answer.key, /^sk-gateway-/);
    assert(answer.key !== key);
    const grace = Date.parse(answer.previous_valid_until) - Date.now();
    assert(grace > 1.9 * 3_600_000 && grace <= 2 * 3_600_000, answer.previous_valid_until);
    assertEquals((await run("keys", "rotate", "9")).code, 1);
  } finally {
    home.cleanup();
  }
});

Deno.test("budgets set --period week|month|rolling --scope key|group|global --webhook, and budgets list", async () => {
  const home = tempHome();
  const run = (...args: string[]) => cli([...args, "--config", home.configPath]);
  try {
    await run("groups", "create", "--name", "ops");
    await run("keys", "create", "--name", "bot");
    const weekly = await run(
      "budgets",
      "set",
      "--limit",
      "20",
      "--period",
      "week",
      "--group",
      "ops",
      "--json",
    );
    assertEquals(weekly.code, 0, weekly.err.join("\n"));
    assertEquals([JSON.parse(weekly.out[0]).scope, JSON.parse(weekly.out[0]).scope_name], [
      "group 1",
      "group ops",
    ]);
    const rolling = await run(
      "budgets",
      "set",
      "--limit",
      "5",
      "--period",
      "rolling",
      "--window",
      "5h",
      "--scope",
      "key",
      "--key",
      "bot",
      "--webhook",
      "http://127.0.0.1:9/hook",
    );
    assertEquals(rolling.code, 0, rolling.err.join("\n"));
    assertStringIncludes(rolling.out[0], "key bot $5 per 5h");
    assertMatch(rolling.out[1], /^Webhook signing secret \(shown once, save it now\): whsec_/);
    assertEquals(
      (await run("budgets", "set", "--limit", "50", "--period", "month", "--no-hard-stop")).code,
      0,
    );
    assertEquals((await run("budgets", "set", "--daily", "1", "--key", "bot")).code, 0);
    const rows = JSON.parse((await run("budgets", "list", "--json")).out[0]);
    assertEquals(
      rows.map((
        r: { scope_name: string; period: string; hard_stop: boolean },
      ) => [r.scope_name, r.period, r.hard_stop]),
      [["global", "month", false], ["group ops", "week", true], ["key bot", "day", true], [
        "key bot",
        "rolling",
        true,
      ]],
    );
    const listed = rows.find((r: { period: string }) => r.period === "rolling");
    assertEquals([listed.window_seconds, listed.webhook_url, listed.status], [
      18000,
      "http://127.0.0.1:9/hook",
      "ok",
    ]);
    // The secret never appears in a listing.
    assert(!JSON.stringify(rows).includes("whsec_"));
    assertEquals((await run("budgets", "set", "--limit", "5", "--period", "rolling")).code, 2);
    assertEquals((await run("budgets", "set", "--limit", "5", "--period", "year")).code, 2);
    assertEquals((await run("budgets", "set", "--limit", "5", "--scope", "group")).code, 2);
  } finally {
    home.cleanup();
  }
});
