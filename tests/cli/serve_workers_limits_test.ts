/**
 * Per-key rate limits hold for the whole gateway, not per process: `serve --workers 2` on one SQLite file,
 * and two instances on one PostgreSQL database, take a burst of 200 requests from a key with RPM 60 and
 * let through at most the bound docs/governance.md states (60 + the refill during the burst; for requests
 * the share rule adds nothing per extra process).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { join } from "node:path";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import {
  chatProvidersYaml,
  QUIET_KEY_CHECKS,
  startTestGateway,
  type TestGateway,
} from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { startWorkers, waitForPeers } from "../helpers/workers.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const RPM = 60;
const BURST = 200;
const CONCURRENCY = 8;

/** Sends BURST requests with `key`, CONCURRENCY at a time, each on a new connection to one of `urls`. */
async function burst(urls: readonly string[], key: string) {
  let sent = 0;
  let ok = 0;
  let refused = 0;
  const servedBy = new Set<string>();
  const started = Date.now();
  const client = async () => {
    while (sent < BURST) {
      const url = urls[sent++ % urls.length];
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", connection: "close" },
        body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
      });
      await response.body?.cancel();
      if (response.status === 200) {
        ok++;
        servedBy.add(response.headers.get("x-gateway-worker") ?? url);
      } else {
        assertEquals(response.status, 429);
        refused++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const seconds = (Date.now() - started) / 1000;
  // The bound for one key and one requests limit (docs/governance.md): L + r·d, r = L/60 per second.
  const bound = RPM + Math.ceil((RPM / 60) * seconds);
  return { ok, refused, seconds, bound, servedBy };
}

Deno.test("serve --workers 2: a key with RPM 60 gets at most 60 + the refill through a burst of 200 spread over both workers", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  const dir = await Deno.makeTempDir({ prefix: "gateway-workers-limits-" });
  await Deno.writeTextFile(
    join(dir, "config.yaml"),
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) + QUIET_KEY_CHECKS,
  );
  const created = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "keys", "create", "--name", "burst", "--rpm", String(RPM), "--json"],
    env: { GATEWAY_HOME: dir, NO_COLOR: "1" },
  }).output();
  assert(created.success, new TextDecoder().decode(created.stderr));
  const { key } = JSON.parse(new TextDecoder().decode(created.stdout));
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  try {
    await waitForPeers(dir, 2);
    const result = await burst([gateway.url!], key);
    console.log(
      `  workers: ${result.ok} of ${BURST} admitted in ${
        result.seconds.toFixed(2)
      } s (bound ${result.bound}), ` +
        `served by ${[...result.servedBy].sort().join(", ")}`,
    );
    assertEquals(result.ok + result.refused, BURST);
    assert(result.ok <= result.bound, `${result.ok} admitted, bound ${result.bound}`);
    // The limit is not split in two halves that each refuse early: most of it is used.
    assert(result.ok >= RPM / 2, `only ${result.ok} admitted`);
    assertEquals(result.servedBy.size, 2, "both workers served requests");
  } finally {
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "two instances on one PostgreSQL: a key with RPM 60 gets at most 60 + the refill through a burst of 200",
  ignore: postgresSkip("rate limits across two instances"),
  async fn() {
    const upstream = await startMockUpstream();
    upstream.script({ json: chatCompletion("ok") });
    const url = await (await testPostgres()).newDatabase();
    const yaml = chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) +
      `storage:\n  url: ${url}\n`;
    const dirs = [await Deno.makeTempDir(), await Deno.makeTempDir()];
    const instances: TestGateway[] = [];
    try {
      instances.push(await startTestGateway(yaml, { dir: dirs[0] }));
      // The second instance shares the first's secret key, as instances of one deployment do.
      await Deno.copyFile(join(dirs[0], "secret.key"), join(dirs[1], "secret.key"));
      const { plaintext } = instances[0].management.keys.create({
        name: "burst",
        canLogin: false,
        allowedModels: [],
        limits: { rpm: RPM },
      });
      instances.push(await startTestGateway(yaml, { dir: dirs[1] }));
      await waitFor(() => instances.every((gw) => gw.runtime.cluster.peers === 1), {
        what: "each instance to see the other",
      });
      const result = await burst(instances.map((gw) => gw.url), plaintext);
      console.log(
        `  PostgreSQL: ${result.ok} of ${BURST} admitted in ${
          result.seconds.toFixed(2)
        } s (bound ${result.bound})`,
      );
      assertEquals(result.ok + result.refused, BURST);
      assert(result.ok <= result.bound, `${result.ok} admitted, bound ${result.bound}`);
      assert(result.ok >= RPM / 2, `only ${result.ok} admitted`);
      assertEquals(result.servedBy.size, 2, "both instances served requests");
    } finally {
      for (const gw of instances) await gw.stop();
      await upstream.close();
      for (const dir of dirs) await Deno.remove(dir, { recursive: true });
    }
  },
});
