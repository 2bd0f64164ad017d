/**
 * `gateway db migrate-to-postgres`: a SQLite database with a million usage rows is copied into an empty
 * PostgreSQL database (dry run first), the counts match, and the dashboard shows the same numbers from both.
 */
import { join } from "node:path";
import { Store, type UsageRow } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { cli } from "../helpers/cli.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const ROWS = 1_000_000;
const ADMIN = "static-admin-key-1234567890";
const DAY = 86_400_000;

function usageRow(i: number, now: number): UsageRow {
  return {
    ts: now - (i % 30) * DAY - (i % 1000),
    clientFormat: i % 3 === 0 ? "messages" : "chat_completions",
    requestModel: `p/m${i % 4}`,
    model: `p/m${i % 4}`,
    providerId: i % 2 === 0 ? "a" : "b",
    accountId: i % 2 === 0 ? "a" : "b",
    clientKeyId: null,
    clientKeyLabel: "admin",
    status: i % 17 === 0 ? 429 : 200,
    inputTokens: 100 + (i % 50),
    cacheReadTokens: i % 7,
    cacheCreationTokens: 0,
    outputTokens: 20 + (i % 9),
    reasoningTokens: 0,
    estimated: false,
    // Each model costs its own amount, so no two dashboard rows tie (ties may list in either order).
    cost: ((i % 4) + 1) / 1000,
    priced: true,
    latencyMs: 10 + (i % 90),
    streamed: i % 2 === 1,
    error: "",
  };
}

async function sections(url: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const name of ["usage", "analytics", "leaderboard"]) {
    const response = await fetch(`${url}/dashboard/api/v2/state/${name}?range=30d`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    assertEquals(response.status, 200, name);
    out[name] = (await response.json()).data;
  }
  return out;
}

Deno.test({
  name: "db migrate-to-postgres: 1 M usage rows copied after a dry run; counts and dashboard numbers match",
  ignore: postgresSkip("db migrate-to-postgres"),
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "gateway-migrate-" });
    const yaml = chatProvidersYaml([{ id: "a", prefix: "p", url: "http://127.0.0.1:9" }, {
      id: "b",
      prefix: "p",
      url: "http://127.0.0.1:9",
    }]) + `api_keys:\n  - key: ${ADMIN}\n    client_key_label: admin\n`;
    try {
      // A gateway creates and seeds the SQLite home; then a million rows go in as the recorder writes them.
      const sqliteGateway = await startTestGateway(yaml, { dir: home });
      await sqliteGateway.stop();
      const store = Store.openWithSecret(join(home, "gateway.db"), join(home, "secret.key"), undefined);
      const now = Date.now();
      for (let start = 0; start < ROWS; start += 50_000) {
        const rows = Array.from({ length: 50_000 }, (_, i) => usageRow(start + i, now));
        store.transaction(() => store.usage.insert(rows));
      }
      store.close();

      const url = await (await testPostgres()).newDatabase();
      const config = join(home, "config.yaml");
      const dry = await cli(["db", "migrate-to-postgres", url, "--dry-run", "--config", config]);
      assertEquals(dry.code, 0, dry.err.join("\n"));
      assertStringIncludes(dry.out.join("\n"), "Dry run");
      assert(dry.out.some((line) => /^\s+usage\s+1000000\s+0$/.test(line)), dry.out.join("\n"));

      const started = performance.now();
      const run = await cli(["db", "migrate-to-postgres", url, "--config", config]);
      const seconds = (performance.now() - started) / 1000;
      assertEquals(run.code, 0, run.err.join("\n"));
      assertStringIncludes(run.out.join("\n"), "Counts match");
      console.log(`copied ${ROWS} usage rows and the rest in ${seconds.toFixed(1)} s`);

      // Copying again into the now-full database is refused, and nothing changes.
      const again = await cli(["db", "migrate-to-postgres", url, "--config", config]);
      assertEquals(again.code, 1);
      assertStringIncludes(again.err.join("\n"), "not empty");

      const onSqlite = await startTestGateway(yaml, { dir: home });
      const before = await sections(onSqlite.url);
      await onSqlite.stop();
      const onPostgres = await startTestGateway(`storage:\n  url: ${url}\n${yaml}`, { dir: home });
      const after = await sections(onPostgres.url);
      await onPostgres.stop();
      assertEquals(after, before);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
