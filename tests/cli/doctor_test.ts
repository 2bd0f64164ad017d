/**
 * `gateway doctor` on a good setup and on broken ones: a bad config, a home the gateway cannot write,
 * a port another program holds, an upstream that does not answer, a PostgreSQL server that is not there.
 * Each broken case exits 1 and names the fix.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { checkServedAddress } from "../../src/cli/doctor_checks.ts";
import { cli } from "../helpers/cli.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { loadPgMigrations, PgDatabase } from "../../src/storage/mod.ts";

/** A loopback port nothing listens on (taken and released). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function homeWith(yaml: string): { dir: string; configPath: string } {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-doctor-" });
  Deno.chmodSync(dir, 0o700);
  const configPath = `${dir}/config.yaml`;
  Deno.writeTextFileSync(configPath, yaml, { mode: 0o600 });
  return { dir, configPath };
}

function serverYaml(port: number): string {
  return `server:\n  host: 127.0.0.1\n  port: ${port}\n`;
}

/** Runs `gateway doctor` on `configPath` (with `GATEWAY_DATABASE_URL` when given): its exit code and output. */
async function doctor(
  configPath: string,
  options: { timeoutS?: number; databaseUrl?: string } = {},
): Promise<{ code: number; text: string }> {
  const timeout = options.timeoutS === undefined ? [] : ["--timeout", String(options.timeoutS)];
  const env: Record<string, string> = options.databaseUrl === undefined
    ? {}
    : { GATEWAY_DATABASE_URL: options.databaseUrl };
  const result = await cli(["doctor", "--config", configPath, ...timeout], env);
  return { code: result.code, text: result.out.join("\n") };
}

Deno.test("gateway doctor: a good setup passes every check and exits 0", async () => {
  const mock = await startMockUpstream();
  const yaml = serverYaml(closedPort()) + chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }]);
  const { dir, configPath } = homeWith(yaml);
  try {
    // A first start creates the database and the secret key, as in real use.
    const gw = await startTestGateway(yaml, { dir });
    await gw.stop();
    const { code, text } = await doctor(configPath, { timeoutS: 3 });
    assertEquals(code, 0, text);
    for (const area of ["config", "home", "database", "secret key", "port", "upstream acct-a"]) {
      assertStringIncludes(text, `OK    ${area}:`);
    }
    assert(!text.includes("FAIL"), text);
    assertStringIncludes(text, "All checks passed");
  } finally {
    Deno.removeSync(dir, { recursive: true });
    await mock.close();
  }
});

Deno.test("gateway doctor: a bad config is a failure naming the file, the line and the key", async () => {
  const { dir, configPath } = homeWith("server:\n  port: 20128\n  hots: 127.0.0.1\n");
  try {
    const { code, text } = await doctor(configPath);
    assertEquals(code, 1, text);
    assertStringIncludes(text, `FAIL  config: ${configPath}:3: server: unknown key "hots"`);
    assertStringIncludes(text, "fix: correct the line named above");
    assertStringIncludes(text, "1 problem to fix");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("gateway doctor: a port held by another program and an unreachable upstream are failures with fixes", async () => {
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heldPort = (holder.addr as Deno.NetAddr).port;
  const deadPort = closedPort();
  const yaml = serverYaml(heldPort) +
    chatProvidersYaml([{ id: "dead", prefix: "d", url: `http://127.0.0.1:${deadPort}` }]);
  const { dir, configPath } = homeWith(yaml);
  // Answers nothing useful to /api/version: it only accepts and closes, like an unrelated service.
  const accepting = (async () => {
    for await (const connection of holder) connection.close();
  })();
  try {
    const { code, text } = await doctor(configPath, { timeoutS: 2 });
    assertEquals(code, 1, text);
    assertStringIncludes(text, `FAIL  port: 127.0.0.1:${heldPort} is in use by another program`);
    assertStringIncludes(text, "fix: stop it");
    assertStringIncludes(text, `FAIL  upstream dead: cannot connect to 127.0.0.1:${deadPort}`);
    assertStringIncludes(text, `fix: check base_url of provider "dead"`);
    assertStringIncludes(text, "2 problems to fix");
  } finally {
    holder.close();
    await accepting.catch(() => {});
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("gateway doctor: a port held by a running gateway is fine", async () => {
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: "http://127.0.0.1:9" }]));
  const port = Number(new URL(gw.url).port);
  const { dir, configPath } = homeWith(serverYaml(port));
  try {
    const { text } = await doctor(configPath);
    assertStringIncludes(
      text,
      `OK    port: 127.0.0.1:${port} is served by a running gateway`,
    );
  } finally {
    await gw.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("gateway doctor: a home the gateway's user cannot write is a failure", async () => {
  const { dir, configPath } = homeWith(serverYaml(closedPort()));
  try {
    let text: string;
    let code: number;
    if (Deno.uid() === 0) {
      // root writes anywhere: run doctor as an unprivileged user over a root-owned home, as a service would.
      Deno.chmodSync(dir, 0o755);
      Deno.chmodSync(configPath, 0o644);
      const cache = Deno.makeTempDirSync({ prefix: "gateway-doctor-deno-" });
      Deno.chmodSync(cache, 0o777);
      try {
        const output = await new Deno.Command("runuser", {
          args: [
            "-u",
            "nobody",
            "--",
            "env",
            `DENO_DIR=${cache}`,
            `HOME=${cache}`,
            Deno.execPath(),
            "run",
            "-A",
            "--node-modules-dir=manual",
            new URL("../../main.ts", import.meta.url).pathname,
            "doctor",
            "--config",
            configPath,
          ],
          cwd: new URL("../../", import.meta.url).pathname,
          stdout: "piped",
          stderr: "piped",
        }).output();
        text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
        code = output.code;
      } finally {
        Deno.removeSync(cache, { recursive: true });
      }
    } else {
      Deno.chmodSync(dir, 0o500);
      ({ code, text } = await doctor(configPath));
      Deno.chmodSync(dir, 0o700);
    }
    assertEquals(code, 1, text);
    assertStringIncludes(text, `FAIL  home: cannot write in ${dir}`);
    assertStringIncludes(text, "fix: give the user running the gateway write access");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "gateway doctor on PostgreSQL: connects, reads the schema version, proves write access, opens the key",
  ignore: postgresSkip("doctor"),
  async fn() {
    const server = await testPostgres();
    const used = await server.newDatabase();
    const empty = await server.newDatabase();
    const yaml = serverYaml(closedPort()) + `storage:\n  url: ${used}\n`;
    const { dir, configPath } = homeWith(yaml);
    try {
      // A first start creates the schema and the secret key, as in real use.
      const gw = await startTestGateway(yaml, { dir });
      await gw.stop();
      const { code, text } = await doctor(configPath, { timeoutS: 3 });
      assertEquals(code, 0, text);
      const latest = loadPgMigrations().at(-1)!.version;
      assertStringIncludes(text, `OK    database: ${used} accepts connections (schema ${latest})`);
      assertStringIncludes(text, "OK    database: user gw may write");
      assertStringIncludes(text, "OK    secret key:");

      // GATEWAY_DATABASE_URL wins over the file, as when serving.
      const fresh = await doctor(configPath, { timeoutS: 3, databaseUrl: empty });
      const freshText = fresh.text;
      assertEquals(fresh.code, 0, freshText);
      assertStringIncludes(
        freshText,
        `OK    database: ${empty} accepts connections (empty: the schema is created`,
      );
      assertStringIncludes(freshText, "OK    database: user gw may write");

      // A user who may connect but not touch the gateway's tables.
      const reader = `gw_reader_${Deno.pid}`;
      const admin = PgDatabase.connect(used);
      admin.exec(`CREATE ROLE ${reader} LOGIN`);
      admin.close();
      const readOnly = used.replace("//gw@", `//${reader}@`);
      const denied = await doctor(configPath, { timeoutS: 3, databaseUrl: readOnly });
      const deniedText = denied.text;
      assertEquals(denied.code, 1, deniedText);
      assertStringIncludes(
        deniedText,
        `FAIL  database: ${readOnly}: permission denied for table schema_migrations`,
      );
      assertStringIncludes(deniedText, "fix: use the user that created the gateway's tables, or GRANT");

      // Allowed to read, still not to write.
      const grant = PgDatabase.connect(used);
      grant.exec(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader}`);
      grant.close();
      const readable = await doctor(configPath, { timeoutS: 3, databaseUrl: readOnly });
      const readableText = readable.text;
      assertEquals(readable.code, 1, readableText);
      assertStringIncludes(
        readableText,
        `OK    database: ${readOnly} accepts connections (schema ${latest})`,
      );
      assertStringIncludes(readableText, `FAIL  database: user ${reader} cannot write: permission denied`);

      const missing = used.replace(/[^/]+$/, "no_such_database");
      const absent = await doctor(configPath, { timeoutS: 3, databaseUrl: missing });
      const absentText = absent.text;
      assertEquals(absent.code, 1, absentText);
      assertStringIncludes(absentText, `FAIL  database: cannot connect to ${missing}`);
      assertStringIncludes(absentText, "fix: create the database: createdb -h 127.0.0.1");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("gateway doctor on PostgreSQL: a closed port fails with the fix, and the password is not printed", async () => {
  const port = closedPort();
  const { dir, configPath } = homeWith(serverYaml(closedPort()));
  try {
    const url = `postgres://gw:hunter2secret@127.0.0.1:${port}/gateway`;
    const { code, text } = await doctor(configPath, { timeoutS: 3, databaseUrl: url });
    assertEquals(code, 1, text);
    assertStringIncludes(
      text,
      `FAIL  database: cannot connect to postgres://gw:***@127.0.0.1:${port}/gateway`,
    );
    assertStringIncludes(text, `fix: start PostgreSQL, or correct the host and port (127.0.0.1:${port})`);
    assert(!text.includes("hunter2secret"), text);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("doctor: a recorded address whose process is gone is a stale-record warning, and the file's port is checked", async () => {
  const stale = await checkServedAddress({ url: "http://127.0.0.1:9", pid: 424242 }, () => false);
  assertEquals(stale?.level, "warn");
  assertEquals(stale?.message.includes("is no longer running"), true);
  assertEquals(await checkServedAddress(null, () => true), null);
  // Alive but answering nothing a gateway would: must be fixed.
  const silent = await checkServedAddress({ url: "http://127.0.0.1:9", pid: Deno.pid }, () => true);
  assertEquals(silent?.level, "fail");
});
