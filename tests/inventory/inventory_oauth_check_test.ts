import { assert, assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startSubscriptionMock } from "../helpers/subscription_mock.ts";
import { ADMIN_KEY, dashboard } from "./inventory_helpers.ts";

type Json = Record<string, unknown>;

Deno.test("an OAuth key's check refreshes it through the credential core (the row's token endpoint) and stores the rotated blob", async () => {
  const mock = await startSubscriptionMock();
  const own = mock.issue();
  const yaml = `providers:
  - id: codex-row
    prefix: codex
    api_type: responses_oauth
    base_url: ${mock.url}/backend-api/codex
    api_key: '${JSON.stringify(own)}'
    models: [gpt-5]
    oauth: {token_url: "${mock.url}/oauth/token"}
api_keys:
  - key: ${ADMIN_KEY}
inventory:
  check_interval_hours: 0
`;
  const gw = await startTestGateway(yaml);
  try {
    // Expires within the refresh lead time: the check must refresh it.
    const pair = mock.issue(60);
    const imported = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: { keys: [{ key_value: pair, provider_id: "codex", key_label: "pool" }] },
    });
    assertEquals(imported.status, 201);
    const id = (imported.body.results as Json[])[0].id as string;
    await gw.management.inventory.checks.idle();

    assertEquals(mock.ledger.refreshes, 1, "one refresh, at the row's token endpoint");
    assertEquals(mock.ledger.bodies[0].refresh_token, pair.refresh_token);
    const stored = JSON.parse(gw.runtime.control.store.inventory.value(id)!);
    assert(stored.access_token !== pair.access_token, "the new access token is stored");
    assert(mock.ledger.validRefresh.has(stored.refresh_token), "the rotated refresh token is stored");
    assert(mock.ledger.spent.has(pair.refresh_token));
    const state = gw.runtime.control.store.credentials.states().get(`inventory:${id}`);
    assert(state?.lastRefreshAt !== null && state?.lastError === null, "the credential core did the refresh");

    const detail = await dashboard(gw, `/dashboard/api/inventory/keys/${id}`);
    const key = detail.body.key as Json;
    assertEquals([key.status, key.is_valid, key.usability], ["active", true, "usable"]);
    assertEquals(String((detail.body.history as Json[])[0].notes).includes("credential refreshed"), true);
    assert(!JSON.stringify(detail.body).includes(stored.refresh_token), "no token in the dashboard answer");

    // The next check finds the stored blob fresh: no second refresh, nothing rotated.
    await dashboard(gw, `/dashboard/api/inventory/keys/${id}/recheck`, { method: "POST" });
    await gw.management.inventory.checks.idle();
    assertEquals(mock.ledger.refreshes, 1);
    assertEquals(mock.ledger.reuses, 0);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
