/**
 * Two gateways on one database behave as one gateway: what one decides (cooldowns, spend, configuration)
 * the other honours, and each one's live stream shows both. The same mechanism serves `serve --workers N`.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

async function pair(yaml: string) {
  const first = await startTestGateway(yaml);
  const second = await startTestGateway(yaml, { dir: first.dir });
  // Both know of each other once a heartbeat has run on each side after the other started.
  await waitFor(() => first.runtime.cluster.peers > 0 && second.runtime.cluster.peers > 0, 3_000);
  return {
    first,
    second,
    async [Symbol.asyncDispose]() {
      await second.stop();
      await first.stop();
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function chat(gateway: TestGateway, model = "p/m1") {
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
}

Deno.test("cluster: a cooldown one gateway sets is honoured by the other after one sync tick", async () => {
  const failing = await startMockUpstream();
  const healthy = await startMockUpstream();
  failing.script({ json: { error: { message: "overloaded" } }, status: 503 });
  healthy.script({ json: chatCompletion("ok") });
  await using t = await pair(chatProvidersYaml([
    { id: "a", prefix: "p", url: failing.url },
    { id: "b", prefix: "p", url: healthy.url },
  ]));
  try {
    const res = await chat(t.first);
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertEquals(failing.requests.length, 1);
    assert(t.first.runtime.routing.active(Date.now()).some((c) => c.accountId === "a"));

    // One tick of the other process (every 50 ms in production) delivers the cooldown.
    t.second.runtime.cluster.tick();
    assert(t.second.runtime.routing.active(Date.now()).some((c) => c.accountId === "a"));
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

Deno.test("cluster: a daily budget is enforced on the spend of both gateways together", async () => {
  const upstream = await startMockUpstream();
  // 1000 $/Mtok in and out: 10 + 5 tokens cost $0.015 a request.
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(
    chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]) +
      "pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n",
  );
  try {
    t.first.management.budgets.set(null, 0.02, 80);
    await waitFor(() => t.second.runtime.control.budgets.length === 1, 3_000);
    const one = await chat(t.first);
    assertEquals(one.status, 200);
    await one.body?.cancel();
    await t.first.runtime.recorder.settled();
    // The second gateway has not served anything itself; it knows the first one's spend after a tick.
    t.first.runtime.cluster.tick();
    t.second.runtime.cluster.tick();
    assert(t.second.runtime.budgets.spentToday(null, Date.now()) > 0.01);
    const two = await chat(t.second);
    assertEquals(two.status, 200, "under the limit: $0.015 of $0.02");
    await two.body?.cancel();
    await t.second.runtime.recorder.settled();
    t.second.runtime.cluster.tick();
    t.first.runtime.cluster.tick();
    const refused = await chat(t.first);
    assertEquals(refused.status, 429);
    assertEquals((await refused.json()).error.type, "budget_exceeded");
  } finally {
    await upstream.close();
  }
});

Deno.test("cluster: a dashboard change on one gateway reaches the other without a restart", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]));
  try {
    t.first.management.combos.create({ name: "team", models: ["p/m1"] });
    await waitFor(() => t.second.runtime.control.combos.some((c) => c.name === "team"), 3_000);
    const res = await chat(t.second, "team");
    assertEquals(res.status, 200);
    await res.body?.cancel();
  } finally {
    await upstream.close();
  }
});

Deno.test("cluster: each gateway's live stream shows the other's requests", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: chatCompletion("ok") });
  await using t = await pair(chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]));
  try {
    const seen: string[] = [];
    const unsubscribe = t.second.dashboard.hub.subscribe((text) => seen.push(text));
    // The first gateway publishes live events only once it knows someone watches (its next heartbeat).
    await waitFor(() => t.first.runtime.cluster.wanted("live"), 3_000);
    const res = await chat(t.first);
    await res.body?.cancel();
    await t.first.runtime.recorder.settled();
    t.first.runtime.cluster.tick();
    t.second.runtime.cluster.tick();
    const recent = t.second.dashboard.hub.recent();
    assertEquals(recent.map((e) => e.phase).sort(), ["finish", "start", "usage"]);
    assertEquals(recent.find((e) => e.phase === "usage")?.provider_id, "a");
    assertEquals(t.second.dashboard.hub.inflight, 0);
    unsubscribe();
    assert(seen.length >= 1);
    await waitFor(() => !t.first.runtime.cluster.wanted("live"), 3_000);
    const quiet = await chat(t.first);
    await quiet.body?.cancel();
    await t.first.runtime.recorder.settled();
    t.first.runtime.cluster.tick();
    t.second.runtime.cluster.tick();
    assertEquals(t.second.dashboard.hub.recent().length, 3, "nobody watches: nothing is published");
  } finally {
    await upstream.close();
  }
});
