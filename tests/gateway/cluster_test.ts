/**
 * Two gateways on one database behave as one gateway: what one decides (cooldowns, spend, configuration)
 * the other honours, and each one's live stream shows both. The same mechanism serves `serve --workers N`.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";

type Backend = "SQLite" | "PostgreSQL";

/** Two gateways on one database: one SQLite file, or one PostgreSQL database (two instances of a fleet). */
async function pair(yaml: string, backend: Backend) {
  const storage = backend === "PostgreSQL"
    ? `storage:\n  url: ${await (await testPostgres()).newDatabase()}\n`
    : "";
  const first = await startTestGateway(storage + yaml);
  const second = await startTestGateway(storage + yaml, { dir: first.dir });
  // Both know of each other once a heartbeat has run on each side after the other started.
  await waitFor(() => first.runtime.cluster.peers > 0 && second.runtime.cluster.peers > 0, {
    what: "each gateway to count the other as a peer",
  });
  return {
    first,
    second,
    async [Symbol.asyncDispose]() {
      await second.stop();
      await first.stop();
    },
  };
}

function chat(gateway: TestGateway, model = "p/m1") {
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
}

/** Declares a test for each backend (PostgreSQL skipped with its reason where its binaries are missing). */
function test(name: string, fn: (backend: Backend) => Promise<void>): void {
  for (const backend of ["SQLite", "PostgreSQL"] as const) {
    Deno.test({
      name: `cluster on ${backend}: ${name}`,
      ignore: backend === "PostgreSQL" && postgresSkip(`cluster: ${name}`),
      fn: () => fn(backend),
    });
  }
}

test("a cooldown one gateway sets is honoured by the other after one sync tick", async (backend) => {
  const failing = await startMockUpstream();
  const healthy = await startMockUpstream();
  failing.script({ json: { error: { message: "overloaded" } }, status: 503 });
  healthy.script({ json: chatCompletion("ok") });
  await using t = await pair(
    chatProvidersYaml([
      { id: "a", prefix: "p", url: failing.url },
      { id: "b", prefix: "p", url: healthy.url },
    ]),
    backend,
  );
  try {
    const res = await chat(t.first);
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertEquals(failing.requests.length, 1);
    assert(t.first.runtime.routing.active(Date.now()).some((c) => c.accountId === "a"));

    // The other process's next sync tick (every 50 ms) delivers the cooldown.
    await waitFor(() => t.second.runtime.routing.active(Date.now()).some((c) => c.accountId === "a"), {
      what: "the second gateway to see the cooldown of a",
    });
    const again = await chat(t.second);
    assertEquals(again.status, 200);
    await again.body?.cancel();
    assertEquals(failing.requests.length, 1, "the cooling account was skipped by the other gateway");
    assertEquals(healthy.requests.length, 2);
  } finally {
    await failing.close();
    await healthy.close();
  }
});

test("a daily budget is enforced on the spend of both gateways together", async (backend) => {
  const upstream = await startMockUpstream();
  // 1000 $/Mtok in and out: 10 + 5 tokens cost $0.015 a request.
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) +
      "pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n",
    backend,
  );
  try {
    t.first.management.budgets.set(null, 0.02, 80);
    await waitFor(() => t.second.runtime.control.budgets.length === 1, {
      what: "the budget to reach the second gateway",
    });
    const one = await chat(t.first);
    assertEquals(one.status, 200);
    await one.body?.cancel();
    await t.first.runtime.recorder.settled();
    // The second gateway has not served anything itself; it learns the first one's spend within two ticks.
    await waitFor(() => t.second.runtime.budgets.spentToday(null, Date.now()) > 0.01, {
      what: "the first gateway's spend to reach the second",
    });
    const two = await chat(t.second);
    assertEquals(two.status, 200, "under the limit: $0.015 of $0.02");
    await two.body?.cancel();
    await t.second.runtime.recorder.settled();
    await waitFor(() => t.first.runtime.budgets.spentToday(null, Date.now()) > 0.02, {
      what: "the second gateway's spend to reach the first",
    });
    const refused = await chat(t.first);
    assertEquals(refused.status, 429);
    assertEquals((await refused.json()).error.type, "budget_exceeded");
  } finally {
    await upstream.close();
  }
});

test("a dashboard change on one gateway reaches the other without a restart", async (backend) => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]), backend);
  try {
    t.first.management.combos.create({ name: "team", models: ["p/m1"] });
    await waitFor(() => t.second.runtime.control.combos.some((c) => c.name === "team"), {
      what: "the combo to reach the second gateway",
    });
    const res = await chat(t.second, "team");
    assertEquals(res.status, 200);
    await res.body?.cancel();
  } finally {
    await upstream.close();
  }
});

test("each gateway's live stream shows the other's requests", async (backend) => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]), backend);
  try {
    const seen: string[] = [];
    const unsubscribe = t.second.dashboard.hub.subscribe((text) => seen.push(text));
    // The first gateway publishes live events only once it knows someone watches (its next heartbeat).
    await waitFor(() => t.first.runtime.cluster.wanted("live"), {
      what: "the first gateway to learn someone watches the live stream",
    });
    const res = await chat(t.first);
    await res.body?.cancel();
    await t.first.runtime.recorder.settled();
    await waitFor(() => t.second.dashboard.hub.recent().length === 3, {
      what: "three live events on the second gateway",
    });
    const recent = t.second.dashboard.hub.recent();
    assertEquals(recent.map((e) => e.phase).sort(), ["finish", "start", "usage"]);
    assertEquals(recent.find((e) => e.phase === "usage")?.provider_id, "a");
    assertEquals(t.second.dashboard.hub.inflight, 0);
    unsubscribe();
    assert(seen.length >= 1);
    await waitFor(() => !t.first.runtime.cluster.wanted("live"), {
      what: "the first gateway to learn nobody watches any more",
    });
    const quiet = await chat(t.first);
    await quiet.body?.cancel();
    await t.first.runtime.recorder.settled();
    // Sync ticks run on both sides, the publisher's first; nothing arrives because nothing was published.
    for (let i = 0; i < 2; i++) {
      t.first.runtime.cluster.tick();
      t.second.runtime.cluster.tick();
    }
    assertEquals(t.second.dashboard.hub.recent().length, 3, "nobody watches: nothing is published");
  } finally {
    await upstream.close();
  }
});

test("a prompt-cache binding one gateway makes is used by the other", async (backend) => {
  await using t = await pair(
    chatProvidersYaml([{ id: "a", prefix: "p", url: "http://127.0.0.1:9" }, {
      id: "b",
      prefix: "p",
      url: "http://127.0.0.1:9",
    }]),
    backend,
  );
  const key = "conversation-hash-1";
  t.first.runtime.routing.affinity.bind(key, "b", Date.now());
  await waitFor(() => t.second.runtime.routing.affinity.lookup(key, Date.now()) === "b", {
    what: "the binding to b on the second gateway",
  });
  t.second.runtime.routing.affinity.bind(key, "a", Date.now() + 5);
  await waitFor(() => t.first.runtime.routing.affinity.lookup(key, Date.now()) === "a", {
    what: "the binding to a on the first gateway",
  });
});
