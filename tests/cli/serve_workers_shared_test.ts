/**
 * `gateway serve --workers 2` as a user runs it, for the facts the issue says must hold across workers: a
 * cooldown set by one worker is honoured by the other (the delay measured), a CLI change reaches both, round
 * robin stays fair across them, a dashboard session from one is valid on the other and a dashboard change
 * there reaches the first, each worker's live stream shows the other's requests, and a budget is enforced
 * on the spend of both with a bounded overshoot. Requests are held to one worker by a keep-alive connection
 * and every answer says which worker served it (`x-gateway-worker`), so each test shows both workers took
 * part.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { parsePrometheusText } from "../helpers/prom_text.ts";
import { dashboardLogin, pinnedClients, startWorkers, waitForPeers, waitUntil } from "../helpers/workers.ts";
import { holdsFalse } from "../helpers/wait.ts";
import { BUDGET_SLICE } from "../../src/gateway/budget_guard.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const KEY = "static-admin-key-1234567890";
const METRICS_TOKEN = "workers-metrics-token-123456";
const JSON_HEADERS = { "content-type": "application/json", authorization: `Bearer ${KEY}` };

function chatInit(model = "p/m1"): RequestInit {
  return {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  };
}

/** One request on a new connection (the kernel picks the worker); returns the status and the worker. */
async function freshChat(url: string): Promise<{ status: number; worker: string | null }> {
  const init = chatInit();
  const response = await fetch(`${url}/v1/chat/completions`, {
    ...init,
    headers: { ...JSON_HEADERS, connection: "close" },
  });
  await response.body?.cancel();
  return { status: response.status, worker: response.headers.get("x-gateway-worker") };
}

async function home(yaml: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gateway-workers-shared-" });
  await Deno.writeTextFile(
    join(dir, "config.yaml"),
    `api_keys:\n  - key: ${KEY}\n    client_key_label: admin\n${yaml}${QUIET_KEY_CHECKS}`,
  );
  return dir;
}

async function cli(dir: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env: { GATEWAY_HOME: dir, NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert(output.success, text);
  return text;
}

Deno.test("serve --workers 2: a cooldown set by one worker is honoured by the other (propagation measured)", async () => {
  const failing = await startMockUpstream();
  const healthy = await startMockUpstream();
  failing.script({ json: { error: { message: "overloaded" } }, status: 503 });
  healthy.script({ json: chatCompletion("ok") });
  const dir = await home(
    chatProvidersYaml([{ id: "a", prefix: "p", url: failing.url }, {
      id: "b",
      prefix: "p",
      url: healthy.url,
    }]) +
      `metrics:\n  enabled: true\n  token: ${METRICS_TOKEN}\n`,
  );
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  const clients = await pinnedClients(gateway.url);
  try {
    const [setter, other] = [...clients.values()];
    // The other worker's own cooldown gauge, read over its own connection (not the shared 5 s snapshots).
    const coolingOnOther = async () => {
      const scrape = await other.fetch("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const family = parsePrometheusText(await scrape.text()).get("gateway_cooldowns_active");
      return (family?.samples ?? []).some((s) =>
        s.labels.worker === other.worker && s.labels.provider === "a"
      );
    };
    assertEquals(await coolingOnOther(), false);

    const sent = performance.now();
    const first = await setter.fetch("/v1/chat/completions", chatInit());
    assertEquals(first.status, 200);
    await first.body?.cancel();
    const answered = performance.now() - sent;
    assertEquals(failing.requests.length, 1, "the setter tried the failing account once, then fell back");
    // Polled every 5 ms; what is reported is an upper bound: from sending the request that sets it.
    const seen = await waitUntil(coolingOnOther, 20_000, 5);
    const delay = performance.now() - sent;
    console.log(
      `  cooldown propagation: worker ${other.worker} honoured worker ${setter.worker}'s cooldown ` +
        `${delay.toFixed(0)} ms after the request that set it was sent (its answer took ${
          answered.toFixed(0)
        } ms; ` +
        `${seen.toFixed(0)} ms of polling)`,
    );
    // The goal is 100 ms (one 50 ms sync tick plus a read); the measured value is printed above
    // (the benchmark tracks it). A pass/fail bound must hold on a busy machine that stalls both workers
    // for a while, so it only catches propagation gone badly wrong.
    assert(delay <= 5_000, `the other worker took ${delay.toFixed(0)} ms to honour the cooldown`);

    const again = await other.fetch("/v1/chat/completions", chatInit());
    assertEquals(again.status, 200);
    await again.body?.cancel();
    assertEquals(failing.requests.length, 1, "the other worker did not try the cooling account");
    assertEquals(healthy.requests.length, 2);
  } finally {
    for (const c of clients.values()) c.close();
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await failing.close();
    await healthy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --workers 2: a CLI setting change reaches both workers; round robin stays fair across them", async () => {
  const a = await startMockUpstream();
  const b = await startMockUpstream();
  a.script({ json: chatCompletion("a") });
  b.script({ json: chatCompletion("b") });
  const dir = await home(
    chatProvidersYaml([{ id: "a", prefix: "p", url: a.url }, { id: "b", prefix: "p", url: b.url }]),
  );
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  const clients = await pinnedClients(gateway.url);
  try {
    // fill_first (the default): every worker sends everything to the first account.
    for (const client of clients.values()) {
      for (let i = 0; i < 2; i++) {
        await (await client.fetch("/v1/chat/completions", chatInit())).body?.cancel();
      }
    }
    assertEquals([a.requests.length, b.requests.length], [4, 0]);

    await cli(dir, "settings", "set", "server_account_strategy", "round_robin");
    const changed = performance.now();
    // Each worker reaches the second account within two requests once it has reloaded.
    for (const client of clients.values()) {
      await waitUntil(
        async () => {
          const before = b.requests.length;
          for (let i = 0; i < 2; i++) {
            await (await client.fetch("/v1/chat/completions", chatInit())).body?.cancel();
          }
          return b.requests.length > before;
        },
        20_000,
        50,
      );
    }
    console.log(
      `  CLI change in force on both workers ${
        (performance.now() - changed).toFixed(0)
      } ms after the CLI exited`,
    );

    // New connections spread over both workers; each worker alternates on its own, so the two accounts
    // differ by at most one request per worker.
    const [a0, b0] = [a.requests.length, b.requests.length];
    const served = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const { status, worker } = await freshChat(gateway.url);
      assertEquals(status, 200);
      served.set(worker ?? "none", (served.get(worker ?? "none") ?? 0) + 1);
    }
    const [da, db] = [a.requests.length - a0, b.requests.length - b0];
    console.log(
      `  40 requests: worker split ${JSON.stringify(Object.fromEntries(served))}, accounts a ${da}, b ${db}`,
    );
    assertEquals([...served.keys()].sort(), ["1", "2"], "both workers served requests");
    assertEquals(da + db, 40);
    assert(Math.abs(da - db) <= 2, `accounts got ${da} and ${db} of 40`);
  } finally {
    for (const c of clients.values()) c.close();
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --workers 2: a dashboard session from one worker works on the other, and its change reaches the first", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  const dir = await home(chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]));
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  const clients = await pinnedClients(gateway.url);
  try {
    const [first, second] = [...clients.values()];
    const cookie = await dashboardLogin(first, KEY);
    assert(cookie.startsWith("gateway_dashboard_key="), cookie);

    const me = await second.fetch("/dashboard/api/me", { headers: { cookie } });
    assertEquals(me.status, 200, "the session made on one worker is valid on the other at once");
    assertEquals((await me.json()).via, "cookie");

    const created = await second.fetch("/dashboard/api/combos", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "team", models: ["p/m1"] }),
    });
    assert(created.status < 300, `combo not created: ${created.status} ${await created.text()}`);
    const took = await waitUntil(
      async () => {
        const res = await first.fetch("/v1/chat/completions", chatInit("team"));
        await res.body?.cancel();
        return res.status === 200;
      },
      20_000,
      25,
    );
    console.log(
      `  combo created on worker ${second.worker} served by worker ${first.worker} after ${
        took.toFixed(0)
      } ms`,
    );
  } finally {
    for (const c of clients.values()) c.close();
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --workers 2: a dashboard's live stream on one worker shows the other worker's requests", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  const dir = await home(
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url, models: ["m1", "m2"] }]),
  );
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  await waitForPeers(dir, 2);
  const clients = await pinnedClients(gateway.url);
  const [watcher, sender] = [...clients.values()];
  const live = await watcher.fetch(
    "/dashboard/api/live",
    { headers: { authorization: `Bearer ${KEY}` } },
    true,
  );
  const reader = live.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    assertEquals(live.status, 200);
    let text = "";
    const pump = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    })().catch(() => {});
    const usageEvents = (model: string) =>
      text.split("\n\n").filter((m) => m.startsWith("event: request")).flatMap((m) =>
        JSON.parse(m.slice(m.indexOf("data: ") + 6)).events as { phase: string; model: string }[]
      ).filter((e) => e.phase === "usage" && e.model.endsWith(model)).length;
    // The sender publishes live events once it knows someone watches (at its next heartbeat, once a
    // second): probe until one of its requests shows up, then count.
    // Each probe that finds nothing yet sends one more request (polled every 100 ms).
    const ready = await waitUntil(
      async () => {
        if (usageEvents("m1") > 0) return true;
        const res = await sender.fetch("/v1/chat/completions", chatInit("p/m1"));
        assertEquals(res.status, 200);
        return false;
      },
      20_000,
      100,
    );
    const sent = 5;
    for (let i = 0; i < sent; i++) {
      const res = await sender.fetch("/v1/chat/completions", chatInit("p/m2"));
      assertEquals(res.status, 200);
    }
    const took = await waitUntil(() => usageEvents("m2") >= sent, 20_000);
    console.log(
      `  worker ${watcher.worker}'s stream showed worker ${sender.worker}'s requests after ${
        ready.toFixed(0)
      } ms ` +
        `of probing; the last of ${sent} arrived ${took.toFixed(0)} ms after its answer`,
    );
    // No request may show up twice: watched for a few sync ticks (50 ms).
    await holdsFalse(() => usageEvents("m2") > sent, 250, "a request shown twice");
    await reader.cancel().catch(() => {});
    await pump;
  } finally {
    await reader.cancel().catch(() => {});
    for (const c of clients.values()) c.close();
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve --workers 2: a burst against a daily budget from both workers overshoots it by less than the stated bound", async () => {
  const upstream = await startMockUpstream();
  // 1000 $/Mtok in and out: the fixture's 10 + 5 tokens cost $0.015 a request.
  upstream.script({ json: chatCompletion("ok") });
  const cost = 0.015;
  const limit = 0.3; // 20 requests
  const dir = await home(
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) +
      "pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n" +
      `metrics:\n  enabled: true\n  token: ${METRICS_TOKEN}\n`,
  );
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  let ok = 0;
  const workers = new Set<string>();
  const concurrency = 4;
  try {
    await waitForPeers(dir, 2);
    await cli(dir, "budgets", "set", "--daily", String(limit), "--global");
    // Both workers reload (each polls the database every 250 ms): each one's own budget gauge, read over a
    // connection to it, shows the limit.
    const pinned = await pinnedClients(gateway.url!);
    try {
      for (const worker of pinned.values()) {
        await waitUntil(async () => {
          const scrape = await worker.fetch("/metrics", {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          });
          const family = parsePrometheusText(await scrape.text()).get("gateway_budget_limit_usd");
          return (family?.samples ?? []).some((s) =>
            s.labels.worker === worker.worker && s.labels.scope === "global" && s.value === limit
          );
        }, 20_000);
      }
    } finally {
      for (const c of pinned.values()) c.close();
    }
    let sent = 0;
    let refused = false;
    const client = async () => {
      while (!refused && sent < 200) {
        sent++;
        const { status, worker } = await freshChat(gateway.url!);
        if (status === 200) {
          ok++;
          workers.add(worker ?? "none");
        } else {
          assertEquals(status, 429);
          refused = true;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    assert(refused, "the budget stopped the burst");
  } finally {
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output);
    await upstream.close();
  }
  try {
    const db = new DatabaseSync(join(dir, "gateway.db"), { readOnly: true });
    const row = db.prepare("SELECT count(*) AS n, sum(cost) AS spent FROM usage WHERE status = 200")
      .get() as {
        n: number;
        spent: number;
      };
    db.close();
    assertEquals(Number(row.n), ok);
    // The bound (docs/scaling.md): the requests in flight when the limit was crossed (at most one per
    // client here) plus, per other worker, one slice of the limit it may not have published yet.
    const bound = limit + concurrency * cost + (2 - 1) * BUDGET_SLICE * limit;
    console.log(
      `  budget $${limit}: ${ok} requests answered by workers ${[...workers].sort().join(", ")}, spent $${
        row.spent.toFixed(3)
      } (overshoot $${(row.spent - limit).toFixed(3)}, bound $${(bound - limit).toFixed(3)})`,
    );
    assertEquals([...workers].sort(), ["1", "2"], "both workers spent against the budget");
    assert(row.spent >= limit - 1e-9, "the burst was not refused before the limit");
    assert(row.spent <= bound + 1e-9, `spent $${row.spent} over a $${limit} budget; bound $${bound}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
