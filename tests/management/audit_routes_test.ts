import { assert, assertEquals } from "../helpers/assert.ts";
import { ADMIN_KEY, body, type DashboardSetup, setupDashboard } from "../dashboard/dashboard_helpers.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { dashboardPublicRoutes, dashboardRoutes } from "../../src/dashboard/mod.ts";
import { DashboardSessions } from "../../src/dashboard/sessions.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";

type Json = Record<string, unknown>;

const UPSTREAM_SECRET = "sk-audit-upstream-secret-000000000001";
const UPSTREAM_SECRET_2 = "sk-audit-upstream-secret-000000000002";
const INVENTORY_KEY = "sk-audit-inventory-key-0000000000003";
const WEBHOOK_SECRET = "whsec-audit-webhook-secret-000000000004";
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The mutating management routes of the app, as its route table lists them (public routes aside). */
function mutatingRoutes(t: DashboardSetup): Set<string> {
  const ctx = t.gw.dashboard;
  const list = (routes: { method: string; path: string }[]) =>
    routes.filter((r) => MUTATING.has(r.method) && r.path.startsWith("/dashboard/api/"))
      .map((r) => `${r.method} ${r.path}`);
  const open = new Set(list(dashboardPublicRoutes(ctx, new DashboardSessions(ctx)).routes));
  return new Set(list(dashboardRoutes(ctx, "test").routes).filter((r) => !open.has(r)));
}

/** One call of a route: its concrete path and body, and whether it should succeed (and be audited). */
interface Step {
  readonly route: string;
  readonly path: (ids: Record<string, string>) => string;
  /** The body, or a function of the ids remembered so far. */
  readonly body?: unknown | ((ids: Record<string, string>) => unknown);
  /** Refused on this setup (a non-subscription provider cannot connect): refused calls write no row. */
  readonly refused?: boolean;
  /** Scripts the mock upstream first. */
  readonly upstream?: (t: DashboardSetup) => void;
  /** Remembers an id from the answer. */
  readonly remember?: (answer: Json, ids: Record<string, string>) => void;
  /** The target the row must name. */
  readonly target?: (ids: Record<string, string>) => string;
}

/** A way to call every mutating route; a route missing here fails the test (add it, it is audited for free). */
const STEPS: Step[] = [
  {
    route: "POST /dashboard/api/v2/keys",
    path: () => "/dashboard/api/v2/keys",
    body: { name: "audited", daily_budget: 5 },
    remember: (a, ids) => {
      ids.key = String((a.key as Json).id);
      ids.plaintext = a.plaintext as string;
    },
  },
  {
    route: "POST /dashboard/api/keys/:id",
    path: (ids) => `/dashboard/api/keys/${ids.key}`,
    body: { name: "audited-2" },
    target: (ids) => `keys:${ids.key}`,
  },
  {
    route: "POST /dashboard/api/groups",
    path: () => "/dashboard/api/groups",
    body: { name: "team-a", rpm: 60 },
    remember: (a, ids) => ids.group = String((a.group as Json).id),
  },
  {
    route: "POST /dashboard/api/groups/:id",
    path: (ids) => `/dashboard/api/groups/${ids.group}`,
    body: { rpm: 120 },
    target: (ids) => `groups:${ids.group}`,
  },
  {
    route: "POST /dashboard/api/keys/:id/rotate",
    path: (ids) => `/dashboard/api/keys/${ids.key}/rotate`,
    body: { grace_seconds: 60 },
    remember: (a, ids) => ids.rotated = a.plaintext as string,
    target: (ids) => `keys:${ids.key}`,
  },
  {
    route: "POST /dashboard/api/v2/budgets",
    path: () => "/dashboard/api/v2/budgets",
    body: (ids: Record<string, string>) => ({
      scope: "key",
      scope_id: Number(ids.key),
      period: "week",
      limit: 20,
      webhook_url: "https://hooks.example.com/budget",
      webhook_secret: WEBHOOK_SECRET,
    }),
  },
  {
    route: "DELETE /dashboard/api/groups/:id",
    path: (ids) => `/dashboard/api/groups/${ids.group}`,
    target: (ids) => `groups:${ids.group}`,
  },
  {
    route: "POST /dashboard/api/budgets",
    path: () => "/dashboard/api/budgets",
    body: { scope: "global", daily_limit: 10 },
    remember: (a, ids) => ids.budget = String((a.budget as Json).id),
  },
  {
    route: "DELETE /dashboard/api/budgets/:id",
    path: (ids) => `/dashboard/api/budgets/${ids.budget}`,
    target: (ids) => `budgets:${ids.budget}`,
  },
  {
    route: "POST /dashboard/api/providers",
    path: () => "/dashboard/api/providers",
    body: {
      id: "acct-new",
      prefix: "q",
      api_type: "chat_compat",
      base_url: "",
      api_key: UPSTREAM_SECRET,
      models: "m2",
    },
  },
  {
    route: "PUT /dashboard/api/providers/:id",
    path: () => "/dashboard/api/providers/acct-new",
    body: { api_key: UPSTREAM_SECRET_2, models: ["m2", "m3"] },
    target: () => "providers:acct-new",
  },
  {
    route: "POST /dashboard/api/providers/:id/disable",
    path: () => "/dashboard/api/providers/acct-new/disable",
    target: () => "providers:acct-new",
  },
  {
    route: "POST /dashboard/api/providers/:id/enable",
    path: () => "/dashboard/api/providers/acct-new/enable",
    target: () => "providers:acct-new",
  },
  {
    route: "POST /dashboard/api/providers/:id/test",
    path: () => "/dashboard/api/providers/acct-a/test",
    upstream: (t) => t.mock.script({ json: chatCompletion("x") }),
    target: () => "providers:acct-a",
  },
  {
    route: "POST /dashboard/api/providers/fetch-models",
    path: () => "/dashboard/api/providers/fetch-models",
    body: { provider_id: "acct-a" },
    upstream: (t) => t.mock.script({ json: { object: "list", data: [{ id: "m1" }] } }),
  },
  {
    route: "POST /dashboard/api/providers/test-draft",
    path: () => "/dashboard/api/providers/test-draft",
    body: { provider_id: "acct-a" },
    upstream: (t) => t.mock.script({ json: { object: "list", data: [{ id: "m1" }] } }),
  },
  {
    route: "POST /dashboard/api/providers/:id/connect",
    path: () => "/dashboard/api/providers/acct-a/connect",
    body: {},
    refused: true,
  },
  {
    route: "POST /dashboard/api/providers/:id/connect/:signin/redirect",
    path: () => "/dashboard/api/providers/acct-a/connect/none/redirect",
    body: { url: "http://127.0.0.1/callback?code=x&state=y" },
    refused: true,
  },
  {
    route: "DELETE /dashboard/api/providers/:id/connect/:signin",
    path: () => "/dashboard/api/providers/acct-a/connect/none",
    refused: true,
  },
  {
    route: "POST /dashboard/api/combos",
    path: () => "/dashboard/api/combos",
    body: { name: "best", models: ["p/m1"] },
  },
  {
    route: "PUT /dashboard/api/combos/:id",
    path: () => "/dashboard/api/combos/best",
    body: { models: ["p/m1", "q/m2"] },
    target: () => "combos:best",
  },
  {
    route: "DELETE /dashboard/api/combos/:id",
    path: () => "/dashboard/api/combos/best",
    target: () => "combos:best",
  },
  {
    route: "POST /dashboard/api/settings",
    path: () => "/dashboard/api/settings",
    body: { combo_strategy: "round_robin" },
  },
  {
    route: "POST /dashboard/api/pricing",
    path: () => "/dashboard/api/pricing",
    body: { model: "p/m1", input_per_mtok: 1, output_per_mtok: 2 },
  },
  { route: "DELETE /dashboard/api/pricing/*", path: () => "/dashboard/api/pricing/p/m1" },
  {
    route: "POST /dashboard/api/inventory/keys",
    path: () => "/dashboard/api/inventory/keys",
    body: { text: INVENTORY_KEY, provider: "p", label: "audit" },
    remember: (a, ids) => ids.inventory = String((a.results as Json[])[0].id),
  },
  {
    route: "POST /dashboard/api/inventory/keys/:id/recheck",
    path: (ids) => `/dashboard/api/inventory/keys/${ids.inventory}/recheck`,
    target: (ids) => `inventory:${ids.inventory}`,
  },
  {
    route: "POST /dashboard/api/inventory/keys/:id/identify",
    path: (ids) => `/dashboard/api/inventory/keys/${ids.inventory}/identify`,
    target: (ids) => `inventory:${ids.inventory}`,
  },
  { route: "POST /dashboard/api/inventory/recheck", path: () => "/dashboard/api/inventory/recheck" },
  {
    route: "POST /dashboard/api/inventory/keys/:id/archive",
    path: (ids) => `/dashboard/api/inventory/keys/${ids.inventory}/archive`,
    target: (ids) => `inventory:${ids.inventory}`,
  },
  {
    route: "POST /dashboard/api/inventory/keys/:id/restore",
    path: (ids) => `/dashboard/api/inventory/keys/${ids.inventory}/restore`,
    target: (ids) => `inventory:${ids.inventory}`,
  },
  {
    route: "POST /dashboard/api/inventory/import",
    path: () => "/dashboard/api/inventory/import",
    body: [{ provider: "p", key_value: INVENTORY_KEY }],
  },
  {
    route: "DELETE /dashboard/api/inventory/keys/:id",
    path: (ids) => `/dashboard/api/inventory/keys/${ids.inventory}`,
    target: (ids) => `inventory:${ids.inventory}`,
  },
  { route: "DELETE /dashboard/api/request-logs", path: () => "/dashboard/api/request-logs" },
  {
    route: "POST /dashboard/api/routing/clear-cooldowns",
    path: () => "/dashboard/api/routing/clear-cooldowns",
  },
  {
    route: "POST /dashboard/api/routing/accounts/:id/clear-cooldown",
    path: () => "/dashboard/api/routing/accounts/acct-a/clear-cooldown",
    target: () => "routing:acct-a",
  },
  {
    route: "DELETE /dashboard/api/keys/:id",
    path: (ids) => `/dashboard/api/keys/${ids.key}`,
    target: (ids) => `keys:${ids.key}`,
  },
  {
    route: "DELETE /dashboard/api/providers/:id",
    path: () => "/dashboard/api/providers/acct-new",
    target: () => "providers:acct-new",
  },
  // Last: Reset re-seeds providers from the file, which removes the ones made above.
  { route: "POST /dashboard/api/reset", path: () => "/dashboard/api/reset" },
];

async function auditRows(t: DashboardSetup): Promise<Json[]> {
  const answer = await t.json("/dashboard/api/audit?limit=1000");
  assertEquals(answer.status, 200);
  return answer.body.entries as Json[];
}

Deno.test("audit: every mutating management route in the app's route table writes one row, secrets redacted", async () => {
  await using t = await setupDashboard();
  const routes = mutatingRoutes(t);
  const covered = new Set(STEPS.map((s) => s.route));
  const missing = [...routes].filter((r) => !covered.has(r));
  assertEquals(missing, [], "routes without a step here: add one (the middleware audits them already)");
  assertEquals([...covered].filter((r) => !routes.has(r)), [], "steps for routes the app no longer has");

  const ids: Record<string, string> = {};
  for (const step of STEPS) {
    step.upstream?.(t);
    const before = (await auditRows(t)).length;
    const stepBody = step.route === "POST /dashboard/api/providers"
      ? { ...(step.body as Json), base_url: `${t.mock.url}/v1` }
      : typeof step.body === "function"
      ? step.body(ids)
      : step.body;
    const method = step.route.split(" ")[0];
    const answer = await t.json(
      step.path(ids),
      stepBody === undefined ? { method } : body(method, stepBody),
    );
    const rows = await auditRows(t);
    if (step.refused) {
      assert(answer.status >= 400, `${step.route} was expected to be refused here, got ${answer.status}`);
      assertEquals(rows.length, before, `${step.route}: a refused call changes nothing and writes no row`);
      continue;
    }
    assert(answer.status < 300, `${step.route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    step.remember?.(answer.body, ids);
    assertEquals(rows.length, before + 1, `${step.route} wrote one audit row`);
    const row = rows[0];
    assertEquals([row.actor, row.actor_kind, row.address], ["admin", "static_key", "127.0.0.1"], step.route);
    if (step.target) assertEquals(row.target, step.target(ids), step.route);
  }

  const rows = await auditRows(t);
  const text = JSON.stringify(rows);
  for (
    const secret of [
      UPSTREAM_SECRET,
      UPSTREAM_SECRET_2,
      INVENTORY_KEY,
      WEBHOOK_SECRET,
      ids.plaintext,
      ids.rotated,
      "static-admin-key",
    ]
  ) {
    assert(!text.includes(secret), `the audit log holds no secret (${secret.slice(0, 12)}…)`);
  }
  // Before → after of a real change: the provider update shows the old and new model lists, keys redacted.
  const update = rows.find((r) => r.action === "providers.update")!;
  const before = JSON.parse(update.before as string).providers["acct-new"];
  const after = JSON.parse(update.after as string).providers["acct-new"];
  assertEquals([before.models, after.models], [["m2"], ["m2", "m3"]]);
  assertEquals([before.apiKey, after.apiKey], ["[redacted]", "[redacted]"]);
  const created = rows.find((r) => r.action === "keys.create")!;
  // The key came with its daily budget: one change, both entries named.
  assertEquals([created.before, (created.target as string).split(" ").sort()], [null, [
    "budgets:1",
    `keys:${ids.key}`,
  ]]);
  assertEquals(JSON.parse(created.after as string).keys[ids.key].name, "audited");
});

Deno.test("audit: API-key sign-ins and refusals are rows without the key typed; a viewer reads the log but cannot export it", async () => {
  await using t = await setupDashboard();
  const typed = "sk-typed-by-mistake-0000000000000000";
  const refused = await t.api("/dashboard/login", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "" },
    body: JSON.stringify({ api_key: typed }),
  });
  assertEquals(refused.status, 401);
  await refused.body?.cancel();
  const form = new URLSearchParams({ api_key: ADMIN_KEY, next: "/dashboard/ui" });
  const signedIn = await fetch(`${t.gw.url}/dashboard/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  assertEquals(signedIn.status, 303);
  await signedIn.body?.cancel();

  const rows = (await auditRows(t)).filter((r) => (r.action as string).startsWith("signin"));
  assertEquals(rows.map((r) => [r.action, r.actor, r.actor_kind, r.target, r.address]), [
    ["signin", "admin", "static_key", "api_key", "127.0.0.1"],
    ["signin.failed", "anonymous", "system", "api_key", "127.0.0.1"],
  ]);
  assertEquals(JSON.parse(rows[1].after as string), { reason: "Invalid API key" });
  assert(!JSON.stringify(await auditRows(t)).includes(typed));

  const viewer = await t.json("/dashboard/api/v2/keys", body("POST", { name: "look", role: "viewer" }));
  const asViewer = { headers: { authorization: `Bearer ${viewer.body.plaintext}` } };
  assertEquals((await t.json("/dashboard/api/audit?action=signin.", asViewer)).status, 200);
  assertEquals((await t.json("/dashboard/api/audit?format=csv", asViewer)).status, 403);
  assertEquals((await t.json("/dashboard/api/audit?since=soon")).status, 400, "a malformed filter is a 400");
  const jsonl = await t.api("/dashboard/api/audit?format=jsonl&action=signin.failed");
  assertEquals(jsonl.headers.get("content-type"), "application/x-ndjson");
  const lines = (await jsonl.text()).trimEnd().split("\n").map((l) => JSON.parse(l) as Json);
  assertEquals(lines.map((l) => l.action), ["signin.failed"]);
});

Deno.test("audit: rows older than server_audit_retention_days are swept when the gateway starts", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-audit-retention-" });
  const yaml = "api_keys:\n  - key: static-admin-key-1234567890\n    client_key_label: admin\n";
  const day = 24 * 3600 * 1000;
  try {
    const first = await startTestGateway(yaml, { dir });
    const now = Date.now();
    first.runtime.control.store.audit.append([
      { ts: now - 40 * day, actor: "old", actorKind: "system", address: "", action: "x.old", target: "" },
      {
        ts: now - 20 * day,
        actor: "recent",
        actorKind: "system",
        address: "",
        action: "x.recent",
        target: "",
      },
    ]);
    // 30 days: the 40-day-old row goes, the 20-day-old one stays (the default, 365, would keep both).
    first.management.settings.apply({ server_audit_retention_days: 30 });
    await first.stop();
    const second = await startTestGateway(yaml, { dir });
    try {
      assertEquals(second.management.audit.list({ action: "x." }).map((r) => r.actor), ["recent"]);
    } finally {
      await second.stop();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("audit: the address is the peer, or X-Forwarded-For only from a configured trusted proxy", async () => {
  const change = (t: DashboardSetup) =>
    t.json("/dashboard/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9, 10.0.0.1" },
      body: JSON.stringify({ combo_strategy: "round_robin" }),
    });
  {
    await using t = await setupDashboard();
    assertEquals((await change(t)).status, 200);
    assertEquals((await auditRows(t))[0].address, "127.0.0.1", "a forged header from a client is ignored");
  }
  {
    await using t = await setupDashboard("server:\n  trusted_proxies: [127.0.0.0/8]\n");
    assertEquals((await change(t)).status, 200);
    assertEquals((await auditRows(t))[0].address, "203.0.113.9", "the client behind the trusted proxy");
  }
});
