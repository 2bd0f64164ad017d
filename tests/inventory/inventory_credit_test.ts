import { assert, assertEquals } from "../helpers/assert.ts";
import { nextUtcMidnight } from "../../src/inventory/credit_endpoints.ts";
import {
  chat,
  chatAnswer,
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startUpstream,
} from "./inventory_helpers.ts";

type Json = Record<string, unknown>;
const OR_KEY = "sk-or-v1-credit-test-0123456789abcdef";
const DS_KEY = "sk-deepseek-credit-test-0123456789";

/**
 * An upstream speaking OpenAI chat with OpenRouter's `/v1/key` and DeepSeek's `/user/balance`: only the
 * two test keys are accepted; what the credit endpoints answer is set by the test.
 */
async function startCreditUpstream() {
  const calls: string[] = [];
  const state = {
    orKey: {} as Json,
    dsBalance: {} as Json,
  };
  const upstream = await startUpstream(({ path, key }) => {
    calls.push(`${path} ${key}`);
    if (key !== OR_KEY && key !== DS_KEY) {
      return Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 });
    }
    if (path === "/v1/models") return Response.json({ object: "list", data: [{ id: "m1" }] });
    if (path === "/v1/key") return Response.json(state.orKey);
    if (path === "/user/balance") return Response.json(state.dsBalance);
    return chatAnswer();
  });
  return { ...upstream, calls, state };
}

async function keyDetail(gw: Parameters<typeof dashboard>[0], id: string): Promise<Json> {
  return (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body;
}

Deno.test("a key whose daily credit limit is spent is daily_exhausted, carries no traffic, and routes again once a check finds credit", async () => {
  const upstream = await startCreditUpstream();
  upstream.state.orKey = {
    data: { limit: 5, limit_remaining: 0, limit_reset: "daily", usage: 12, usage_daily: 5 },
  };
  const gw = await startInventoryGateway(inventoryYaml(upstream.url, "", ["openrouter"]));
  try {
    const pushed = await push(gw, { key: OR_KEY });
    const id = (pushed.body.results as Json[])[0].id as string;
    assertEquals((pushed.body.results as Json[])[0].provider_id, "openrouter");
    await gw.management.inventory.checks.idle();
    const spent = await keyDetail(gw, id);
    const view = spent.key as Json;
    assertEquals([view.status, view.is_valid, view.routable, view.usability, view.credits_remaining], [
      "daily_exhausted",
      true,
      false,
      "no_quota",
      0,
    ]);
    assert(String(view.usability_note).includes("daily credit limit spent"));
    const reset = nextUtcMidnight(Date.now());
    assert(
      Number(spent.next_check_at) > reset && Number(spent.next_check_at) <= reset + 120_000,
      "checked again just after the daily reset",
    );
    assertEquals(upstream.calls.filter((c) => c === `/v1/chat/completions ${OR_KEY}`).length, 0, "no probe");
    await chat(gw, "openrouter/m1");
    assertEquals(
      upstream.calls.filter((c) => c === `/v1/chat/completions ${OR_KEY}`).length,
      0,
      "no traffic",
    );

    // The next day the limit has reset: the next check brings the key back.
    upstream.state.orKey = {
      data: { limit: 5, limit_remaining: 5, limit_reset: "daily", usage: 12, usage_daily: 0 },
    };
    await dashboard(gw, `/dashboard/api/inventory/keys/${id}/recheck`, { method: "POST" });
    await gw.management.inventory.checks.idle();
    const back = (await keyDetail(gw, id)).key as Json;
    assertEquals([back.status, back.routable, back.credits_remaining], ["active", true, 5]);
    assertEquals(await chat(gw, "openrouter/m1"), 200);
    assertEquals(
      upstream.calls.filter((c) => c === `/v1/chat/completions ${OR_KEY}`).length,
      2,
      "the usability probe and one request",
    );
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("DeepSeek's balance is read from /user/balance: an empty one makes the key unusable, a funded one sets its credit", async () => {
  const upstream = await startCreditUpstream();
  upstream.state.dsBalance = {
    is_available: false,
    balance_infos: [{
      currency: "USD",
      total_balance: "0.00",
      granted_balance: "0.00",
      topped_up_balance: "0.00",
    }],
  };
  const gw = await startInventoryGateway(inventoryYaml(upstream.url, "", ["deepseek"]));
  try {
    const pushed = await push(gw, { key: DS_KEY, provider: "deepseek" });
    const id = (pushed.body.results as Json[])[0].id as string;
    await gw.management.inventory.checks.idle();
    const empty = (await keyDetail(gw, id)).key as Json;
    assertEquals([empty.status, empty.is_valid, empty.routable, empty.usability, empty.credits_remaining], [
      "active",
      true,
      false,
      "no_quota",
      0,
    ]);
    upstream.state.dsBalance = {
      is_available: true,
      balance_infos: [{
        currency: "USD",
        total_balance: "8.25",
        granted_balance: "1.00",
        topped_up_balance: "7.25",
      }],
    };
    await dashboard(gw, `/dashboard/api/inventory/keys/${id}/recheck`, { method: "POST" });
    await gw.management.inventory.checks.idle();
    const funded = (await keyDetail(gw, id)).key as Json;
    assertEquals([funded.status, funded.routable, funded.credits_remaining], ["active", true, 8.25]);
    assertEquals(upstream.calls.filter((c) => c === `/user/balance ${DS_KEY}`).length, 2);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
