import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";

const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };

/** Accounts a1..aN on prefix "p", each its own mock upstream; `quota` adds YAML under an account. */
async function accounts(n: number, settings: Record<string, string>, quota: Record<string, string> = {}) {
  const mocks: MockUpstream[] = [];
  let yaml = "providers:\n";
  for (let i = 1; i <= n; i++) {
    const mock = await startMockUpstream();
    mock.script({ json: chatCompletion(`a${i}`) });
    mocks.push(mock);
    yaml += `  - id: a${i}\n    prefix: p\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n` +
      `    api_key: upstream-key-a${i}\n    models: [m1]\n${quota[`a${i}`] ?? ""}`;
  }
  const gw = await startTestGateway(yaml);
  for (const [k, v] of Object.entries(settings)) gw.runtime.control.store.settings.set(k, v);
  gw.runtime.control.reload();
  return {
    mocks,
    gw,
    /** Sends one request; the text says which account answered. */
    async send(): Promise<string> {
      const response = await post(`${gw.url}/v1/chat/completions`, ask);
      assertEquals(response.status, 200);
      return (await response.json()).choices[0].message.content;
    },
    /** The order the Routing screen says the next request gets. */
    tryOrder(): string[] {
      const plan = gw.runtime.routing.preview(
        gw.runtime.table,
        "p/m1",
        gw.runtime.control.settings,
        Date.now(),
      );
      return plan.kind === "attempts" ? plan.attempts.map((a) => a.account.id) : [];
    },
    async [Symbol.asyncDispose]() {
      await gw.stop();
      for (const m of mocks) await m.close();
    },
  };
}

function remaining(requests: number, limit: number, reset = "10m0s") {
  return {
    "x-ratelimit-limit-requests": String(limit),
    "x-ratelimit-remaining-requests": String(requests),
    "x-ratelimit-reset-requests": reset,
  };
}

Deno.test("an account whose upstream reports no requests left moves to the end of the try order", async () => {
  await using t = await accounts(3, { server_account_strategy: "fill_first" });
  t.mocks[0].script({ json: chatCompletion("a1"), headers: remaining(0, 60) });
  assertEquals(await t.send(), "a1");
  assertEquals(t.tryOrder(), ["a2", "a3", "a1"]);
  assertEquals(await t.send(), "a2");
  assertEquals(t.mocks[0].requests.length, 1);
});

Deno.test("soft deprioritisation never drops the last account: all spent, the request is still served", async () => {
  await using t = await accounts(2, { server_account_strategy: "fill_first" });
  for (const mock of t.mocks) mock.script({ json: chatCompletion("spent"), headers: remaining(0, 60) });
  await t.send();
  await t.send();
  assertEquals(t.tryOrder(), ["a1", "a2"]);
  assertEquals(await t.send(), "spent");
  // A single spent account is tried too.
  await using one = await accounts(1, {});
  one.mocks[0].script({ json: chatCompletion("only"), headers: remaining(0, 60) });
  assertEquals(await one.send(), "only");
  assertEquals(await one.send(), "only");
});

Deno.test("quota_aware prefers the most headroom and breaks ties by the earliest reset", async () => {
  await using t = await accounts(3, { server_account_strategy: "round_robin" });
  t.mocks[0].script({ json: chatCompletion("a1"), headers: remaining(10, 100, "30m0s") });
  t.mocks[1].script({ json: chatCompletion("a2"), headers: remaining(80, 100, "30m0s") });
  t.mocks[2].script({ json: chatCompletion("a3"), headers: remaining(80, 100, "5m0s") });
  // Each account answers once and reports its own headroom.
  assertEquals([await t.send(), await t.send(), await t.send()], ["a1", "a2", "a3"]);
  t.gw.runtime.control.store.settings.set("server_account_strategy", "quota_aware");
  t.gw.runtime.control.reload();
  assertEquals(t.tryOrder(), ["a3", "a2", "a1"]);
  assertEquals(await t.send(), "a3");
});

Deno.test("quota_aware counts a rejected subscription window as no headroom, whatever the other windows say", async () => {
  await using t = await accounts(2, { server_account_strategy: "round_robin" });
  const inHour = String(Math.floor(Date.now() / 1000) + 3600);
  t.mocks[0].script({
    json: chatCompletion("a1"),
    headers: {
      "anthropic-ratelimit-unified-status": "allowed_warning",
      "anthropic-ratelimit-unified-5h-utilization": "0.95",
      "anthropic-ratelimit-unified-5h-reset": inHour,
    },
  });
  t.mocks[1].script({
    json: chatCompletion("a2"),
    headers: {
      "anthropic-ratelimit-unified-status": "allowed",
      "anthropic-ratelimit-unified-5h-utilization": "0.10",
      "anthropic-ratelimit-unified-5h-reset": inHour,
    },
  });
  assertEquals([await t.send(), await t.send()], ["a1", "a2"]);
  t.gw.runtime.control.store.settings.set("server_account_strategy", "quota_aware");
  t.gw.runtime.control.reload();
  assertEquals(t.tryOrder(), ["a2", "a1"]);
});

Deno.test("a configured rpm moves an account that used its minute to the end", async () => {
  await using t = await accounts(2, { server_account_strategy: "fill_first" }, {
    a1: "    quota: { rpm: 2 }\n",
  });
  assertEquals([await t.send(), await t.send(), await t.send()], ["a1", "a1", "a2"]);
  const headroom = t.gw.runtime.routing.quota.headroom("a1", Date.now());
  assertEquals(headroom?.reason, "configured rpm limit used up (2 of 2)");
});

Deno.test("a configured daily token quota counts answer tokens and deprioritises the account", async () => {
  await using t = await accounts(2, { server_account_strategy: "fill_first" }, {
    a1: "    quota:\n      windows: [{ window: daily, metric: tokens, limit: 20 }]\n",
  });
  // Each answer reports 10 prompt + 5 completion tokens.
  assertEquals([await t.send(), await t.send(), await t.send()], ["a1", "a1", "a2"]);
});

Deno.test("a configured rpd counts today's stored attempts after a restart", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-quota-seed-" });
  const mocks = [await startMockUpstream(), await startMockUpstream()];
  mocks.forEach((m, i) => m.script({ json: chatCompletion(`a${i + 1}`) }));
  const yaml = "providers:\n" +
    mocks.map((m, i) =>
      `  - id: a${i + 1}\n    prefix: p\n    api_type: chat_compat\n    base_url: ${m.url}/v1\n` +
      `    api_key: upstream-key-a${i + 1}\n    models: [m1]\n${i === 0 ? "    quota: { rpd: 2 }\n" : ""}`
    ).join("");
  const send = async (url: string) => {
    const response = await post(`${url}/v1/chat/completions`, ask);
    return (await response.json()).choices[0].message.content;
  };
  try {
    const first = await startTestGateway(yaml, { dir });
    assertEquals(await send(first.url), "a1");
    await first.stop();
    const second = await startTestGateway(yaml, { dir });
    try {
      // One attempt is stored from before the restart: one more fits, then a1 goes last.
      assertEquals([await send(second.url), await send(second.url)], ["a1", "a2"]);
    } finally {
      await second.stop();
    }
  } finally {
    for (const m of mocks) await m.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
