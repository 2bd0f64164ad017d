/**
 * The governance routes of the dashboard API: groups CRUD, key limits/group/expiry and rotation, budgets by
 * period with a webhook (secret shown once, never listed), the Keys and Budgets sections, and analytics,
 * the leaderboard and the usage export grouped by key group.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

Deno.test("dashboard API: groups, key limits and rotation, period budgets, and usage grouped by group", async () => {
  await using d = await setupDashboard(
    "pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\n",
  );
  d.mock.script({ json: chatCompletion("ok") });
  d.gw.management.settings.apply({ server_require_api_key: "true" });
  const group = await d.json(
    "/dashboard/api/groups",
    body("POST", { name: "ops", rpm: 50, allowed_models: "p/*" }),
  );
  assertEquals(group.status, 201);
  const groupId = (group.body.group as { id: number }).id;
  assertEquals((await d.json("/dashboard/api/groups", body("POST", { name: "ops" }))).status, 409);
  assertEquals((await d.json("/dashboard/api/groups", body("POST", { name: "x", rpm: 0 }))).body.error, {
    message: "rpm: must be a whole number of at least 1, or null to inherit",
    type: "invalid_request",
    field: "rpm",
  });

  const created = await d.json(
    "/dashboard/api/v2/keys",
    body("POST", { name: "svc", can_login: false, group_id: groupId, rpm: 80, tpm: 5000 }),
  );
  assertEquals(created.status, 201, JSON.stringify(created.body));
  const key = created.body.key as Record<string, unknown>;
  // A group's limit is a ceiling: the key asked for 80, its group allows 50.
  assertEquals([key.group, key.rpm, key.tpm], ["ops", 80, 5000]);
  assertEquals(key.effective, { rpm: 50, tpm: 5000, max_parallel: null });
  const plaintext = created.body.plaintext as string;
  const ask = async (apiKey: string) => {
    const response = await fetch(`${d.gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
    });
    await response.body?.cancel();
    return response;
  };
  const answered = await ask(plaintext);
  assertEquals(answered.status, 200);
  assertEquals(answered.headers.get("x-ratelimit-limit-requests"), "50");
  assertEquals(answered.headers.get("x-ratelimit-limit-tokens"), "5000");

  const rotated = await d.json(`/dashboard/api/keys/${key.id}/rotate`, body("POST", { grace_seconds: 0 }));
  assertEquals(rotated.status, 200);
  assertEquals((await ask(plaintext)).status, 401);
  assertEquals((await ask(rotated.body.plaintext as string)).status, 200);

  // A new budget counts the spend before it, rows still queued for the database included.
  const saved = await d.json(
    "/dashboard/api/v2/budgets",
    body("POST", {
      scope: "group",
      scope_id: groupId,
      period: "rolling",
      window_seconds: 18_000,
      limit: 10,
      webhook_url: "http://127.0.0.1:9/hook",
    }),
  );
  assertEquals(saved.status, 200, JSON.stringify(saved.body));
  assert(String(saved.body.webhook_secret).startsWith("whsec_"));
  assertEquals(
    (await d.json("/dashboard/api/v2/budgets", body("POST", { scope: "key", period: "week", limit: 1 })))
      .body.error,
    {
      message: "scope_id: is required for a key or group budget",
      type: "invalid_request",
      field: "scope_id",
    },
  );
  const budgets = await d.api("/dashboard/api/v2/state/budgets");
  const budgetsText = await budgets.text();
  assert(!budgetsText.includes("whsec_"), "the webhook secret is never listed");
  const section = JSON.parse(budgetsText).data;
  const rolling = section.period_budgets.find((b: { period: string }) => b.period === "rolling");
  assertEquals([rolling.scope, rolling.scope_label, rolling.window_seconds, rolling.webhook_url], [
    "group",
    "ops",
    18000,
    "http://127.0.0.1:9/hook",
  ]);
  assertEquals(rolling.spent > 0, true);

  // The static admin key's own request counts under "(no group)".
  assertEquals((await ask("static-admin-key-1234567890")).status, 200);
  d.gw.runtime.writer.flush();
  const analytics = (await d.json("/dashboard/api/v2/state/analytics?dimension=group")).body.data as {
    dimension: string;
    breakdown: { key: string; requests: number }[];
  };
  assertEquals(analytics.dimension, "group");
  assertEquals(analytics.breakdown.map((r) => [r.key, r.requests]).sort(), [["(no group)", 1], ["ops", 2]]);
  const board = (await d.json("/dashboard/api/v2/state/leaderboard?by=group&sort=requests")).body.data as {
    by: string;
    rows: { key_name: string; requests: number }[];
  };
  assertEquals(board.by, "group");
  assertEquals(board.rows.map((r) => [r.key_name, r.requests]), [["ops", 2], ["(no group)", 1]]);
  const csv = await d.api("/dashboard/api/usage/export?days=30&by=group");
  assertEquals(csv.status, 200);
  assertStringIncludes(csv.headers.get("content-disposition") ?? "", "gateway-usage-by-group-30d.csv");
  const lines = (await csv.text()).trim().split("\n");
  assertEquals(lines[0], "group,requests,ok_requests,input_tokens,output_tokens,cost_usd");
  assert(lines.some((line) => line.startsWith("ops,2,2,")), lines.join("\n"));

  assertEquals((await d.json(`/dashboard/api/groups/${groupId}`, { method: "DELETE" })).status, 200);
  const keys = (await d.json("/dashboard/api/v2/state/keys")).body.data as {
    keys: { name: string; group: string }[];
  };
  assertEquals(keys.keys.find((k) => k.name === "svc")?.group, null);
});
