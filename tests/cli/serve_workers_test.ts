/**
 * `gateway serve --workers 2` as a user runs it: two processes on one port and one database, a cooldown
 * one worker sets honoured by the other, and SIGTERM under load drains both without losing a usage row.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { parsePrometheusText } from "../helpers/prom_text.ts";
import { waitFor } from "../helpers/wait.ts";
import { pinnedClients, startWorkers, waitForPeers } from "../helpers/workers.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

function post(url: string, body: unknown) {
  return fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    // A new connection each time, so the kernel spreads requests over both workers.
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify(body),
  });
}

const request = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };
const METRICS_TOKEN = "workers-metrics-token-123456";

Deno.test("serve --workers 2: both workers serve one port; a cooldown set by one is honoured by both", async () => {
  const failing = await startMockUpstream();
  const healthy = await startMockUpstream();
  failing.script({ json: { error: { message: "overloaded" } }, status: 503 });
  healthy.script({ json: chatCompletion("ok") });
  const home = await Deno.makeTempDir({ prefix: "gateway-workers-" });
  await Deno.writeTextFile(
    join(home, "config.yaml"),
    chatProvidersYaml([{ id: "a", prefix: "p", url: failing.url }, {
      id: "b",
      prefix: "p",
      url: healthy.url,
    }]) + `metrics:\n  enabled: true\n  token: ${METRICS_TOKEN}\n` + QUIET_KEY_CHECKS,
  );
  const gateway = await startWorkers(home);
  try {
    assert(gateway.url, gateway.printed());
    const db = new DatabaseSync(join(home, "gateway.db"), { readOnly: true });
    const members = db.prepare("SELECT count(*) AS n FROM cluster_members").get() as { n: number };
    db.close();
    assertEquals(Number(members.n), 2, "two worker processes share the database");
    const workerPids = Deno.readTextFileSync(`/proc/${gateway.child.pid}/task/${gateway.child.pid}/children`)
      .trim().split(" ");
    assertEquals(workerPids.length, 2);
    for (const pid of workerPids) {
      const args = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
      assert(args.includes(V8_FLAGS_ARG), `a worker without the heap flags: ${args}`);
      // The allocator setting of malloc_env.ts (this test's own environment does not set it).
      const env = Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0");
      assert(env.includes("MALLOC_ARENA_MAX=2"), `a worker without MALLOC_ARENA_MAX=2`);
    }

    // A worker shares what it decides once it has counted the other at a heartbeat.
    await waitForPeers(home, 2);
    const first = await post(gateway.url!, request);
    assertEquals(first.status, 200);
    await first.body?.cancel();
    assertEquals(failing.requests.length, 1);
    // Workers sync every 50 ms: wait until each one's own cooldown gauge, read over a connection to it,
    // shows the account cooling, then spread 20 requests over both workers.
    const pinned = await pinnedClients(gateway.url!);
    try {
      for (const worker of pinned.values()) {
        await waitFor(async () => {
          const scrape = await worker.fetch("/metrics", {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          });
          const family = parsePrometheusText(await scrape.text()).get("gateway_cooldowns_active");
          return (family?.samples ?? []).some((s) =>
            s.labels.worker === worker.worker && s.labels.provider === "a"
          );
        }, { what: `worker ${worker.worker} to know the cooldown` });
      }
    } finally {
      for (const c of pinned.values()) c.close();
    }
    for (let i = 0; i < 20; i++) {
      const res = await post(gateway.url!, request);
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
    assertEquals(failing.requests.length, 1, "no worker tried the cooling account again");
  } finally {
    gateway.child.kill("SIGTERM");
    const status = await gateway.child.status;
    const output = await gateway.output;
    await gateway.errors;
    assertEquals(status.code, 0, output);
    assertStringIncludes(output, "Stopped.");
    await failing.close();
    await healthy.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve --workers 2: SIGTERM under load drains both workers and loses no usage row", async () => {
  const upstream = await startMockUpstream();
  upstream.script({
    handler: async () => {
      await new Promise((r) => setTimeout(r, 30));
      return Response.json(chatCompletion("ok"));
    },
  });
  const home = await Deno.makeTempDir({ prefix: "gateway-workers-" });
  await Deno.writeTextFile(
    join(home, "config.yaml"),
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) + QUIET_KEY_CHECKS,
  );
  const gateway = await startWorkers(home);
  let ok = 0;
  try {
    assert(gateway.url, gateway.printed());
    let sent = 0;
    const client = async () => {
      while (sent < 300) {
        sent++;
        try {
          const res = await post(gateway.url!, request);
          if (res.status === 200) ok++;
          await res.body?.cancel();
        } catch {
          return; // the listeners closed: the gateway is shutting down
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await waitFor(() => ok >= 40, { what: "40 answered requests" });
    gateway.child.kill("SIGTERM");
    await Promise.all(clients);
  } finally {
    const status = await gateway.child.status;
    await gateway.output;
    await gateway.errors;
    assertEquals(status.code, 0);
  }
  try {
    const db = new DatabaseSync(join(home, "gateway.db"), { readOnly: true });
    const rows = db.prepare("SELECT count(*) AS n FROM usage WHERE status = 200").get() as { n: number };
    db.close();
    assert(ok >= 40);
    assertEquals(Number(rows.n), ok, "every answered request has its usage row");
  } finally {
    await upstream.close();
    await Deno.remove(home, { recursive: true });
  }
});
