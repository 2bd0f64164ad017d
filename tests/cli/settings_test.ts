import { assertEquals } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { tempHome } from "../helpers/temp_home.ts";

Deno.test("settings get lists every setting with its default", async () => {
  const home = tempHome("server:\n  require_api_key: true\n");
  try {
    const result = await cli(["settings", "get", "--json", "--config", home.configPath]);
    const all = JSON.parse(result.out[0]);
    assertEquals(all.server_require_api_key, true, "YAML decides until the database has a value");
    assertEquals(all.server_cooldowns_enabled, true);
    assertEquals(all.server_request_logging, false);
    assertEquals(all.server_request_log_retention, 500);
    assertEquals(all.combo_strategy, "fallback");
    assertEquals(all.combo_sticky_limit, 1);
    assertEquals(all.combo_fusion_judge, "");
    assertEquals(all.combo_fusion_min_panel, 2);
    assertEquals(all.combo_fusion_straggler_grace_s, 8);
    assertEquals(all.combo_fusion_hard_timeout_s, 90);
    assertEquals(all.saver_rtk_enabled, true);
    assertEquals(all.saver_caveman_enabled, false);
    assertEquals(all.saver_ponytail_enabled, false);
    assertEquals(all.saver_headroom_enabled, false);
  } finally {
    home.cleanup();
  }
});

Deno.test("settings --help shows each setting's default", async () => {
  const help = (await cli(["settings", "--help"])).out.join("\n");
  for (const line of ["server_request_log_retention", "combo_strategy", "combo_fusion_judge"]) {
    const shown = help.split("\n").find((l) => l.trim().startsWith(line)) ?? "";
    assertEquals(/\[[^\]]+\]$/.test(shown), true, shown);
  }
  assertEquals(help.includes("request log rows kept (oldest pruned) [500]"), true);
  assertEquals(help.includes("[empty]"), true);
});

Deno.test("settings set validates, clamps where the spec says, and the database value wins", async () => {
  const home = tempHome("server:\n  require_api_key: true\n");
  const c = ["--config", home.configPath];
  try {
    assertEquals((await cli(["settings", "set", "server_require_api_key", "false", ...c])).out, [
      "server_require_api_key = false",
    ]);
    assertEquals((await cli(["settings", "get", "server_require_api_key", ...c])).out, ["false"]);
    assertEquals((await cli(["settings", "set", "server_request_log_retention", "10", ...c])).out, [
      "server_request_log_retention = 50 (clamped from 10 to the allowed range)",
    ]);
    assertEquals((await cli(["settings", "set", "server_request_log_retention", "99999", ...c])).out, [
      "server_request_log_retention = 5000 (clamped from 99999 to the allowed range)",
    ]);
    // A negative number is a value, not a flag.
    assertEquals((await cli(["settings", "set", "server_request_log_retention", "-5", "--json", ...c])).out, [
      '{"server_request_log_retention":50,"clamped_from":"-5"}',
    ]);
    assertEquals((await cli(["settings", "set", "server_request_log_retention", "700", ...c])).out, [
      "server_request_log_retention = 700",
    ]);
    assertEquals((await cli(["settings", "set", "combo_strategy", "round_robin", ...c])).code, 0);
  } finally {
    home.cleanup();
  }
});

Deno.test("invalid settings exit 2 with a clear message and change nothing", async () => {
  const home = tempHome();
  const c = ["--config", home.configPath];
  try {
    const cases: [string[], string][] = [
      [["settings", "set", "no_such_setting", "1"], 'unknown setting "no_such_setting"'],
      [
        ["settings", "set", "combo_strategy", "random"],
        "combo_strategy: must be one of fallback, round_robin, fusion",
      ],
      [
        ["settings", "set", "combo_sticky_limit", "0"],
        "combo_sticky_limit: must be at least 1 and at most 1000",
      ],
      [
        ["settings", "set", "server_cooldowns_enabled", "maybe"],
        "server_cooldowns_enabled: must be true or false",
      ],
      [
        ["settings", "set", "combo_fusion_hard_timeout_s", "0"],
        "combo_fusion_hard_timeout_s: must be greater than 0",
      ],
      [
        ["settings", "set", "combo_fusion_judge", "nojudge"],
        "combo_fusion_judge: must be empty or <prefix>/<model>",
      ],
      [
        ["settings", "set", "reporting_timezone", "Mars/Olympus"],
        'reporting_timezone: unknown time zone "Mars/Olympus"',
      ],
    ];
    for (const [args, fragment] of cases) {
      const result = await cli([...args, ...c]);
      assertEquals(result.code, 2, args.join(" "));
      assertEquals(result.err.length, 1);
      assertEquals(result.err[0].includes(fragment), true, `${result.err[0]} should include ${fragment}`);
    }
    const all = JSON.parse((await cli(["settings", "get", "--json", ...c])).out[0]);
    assertEquals(all.combo_strategy, "fallback");
    assertEquals(all.combo_sticky_limit, 1);
  } finally {
    home.cleanup();
  }
});

Deno.test("config-init writes a default config and never overwrites without --force", async () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/sub/config.yaml`;
  try {
    assertEquals((await cli(["config-init", "--path", path])).out, [`Config created: ${path}`]);
    Deno.writeTextFileSync(path, "server: {}\n");
    const again = await cli(["config-init", "--path", path]);
    assertEquals(again.code, 1);
    assertEquals(Deno.readTextFileSync(path), "server: {}\n");
    assertEquals((await cli(["config-init", "--path", path, "--force"])).out, [
      `Config overwritten: ${path}`,
    ]);
    assertEquals(Deno.readTextFileSync(path).startsWith("# gateway configuration."), true);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("GATEWAY_HOME decides where config and database live", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const result = await cli(["config-init"], { GATEWAY_HOME: dir });
    assertEquals(result.out, [`Config created: ${dir}/config.yaml`]);
    await cli(["keys", "create", "--name", "x"], { GATEWAY_HOME: dir });
    Deno.statSync(`${dir}/gateway.db`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("budgets set, list and delete manage daily limits for scripts", async () => {
  const home = tempHome();
  const c = ["--config", home.configPath];
  try {
    await cli(["keys", "create", "--name", "dev", ...c]);
    assertEquals((await cli(["budgets", "set", "--daily", "5", ...c])).out, [
      "Budget 1 set: global daily limit $5, warn at 80%",
    ]);
    assertEquals(
      (await cli(["budgets", "set", "--daily", "2", "--key", "dev", "--warn", "50", ...c])).code,
      0,
    );
    const list = JSON.parse((await cli(["budgets", "list", "--json", ...c])).out[0]);
    assertEquals(list.map((b: { scope: string; status: string }) => [b.scope, b.status]), [["global", "ok"], [
      "key 1",
      "ok",
    ]]);
    assertEquals((await cli(["budgets", "set", "--daily", "x", ...c])).code, 2);
    assertEquals((await cli(["budgets", "set", "--daily", "1", "--key", "ghost", ...c])).code, 1);
    assertEquals((await cli(["budgets", "delete", "1", ...c])).out, ["Deleted budget 1"]);
    assertEquals((await cli(["budgets", "delete", "1", ...c])).code, 1);
  } finally {
    home.cleanup();
  }
});
