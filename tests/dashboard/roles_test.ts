/** Least privilege: viewers look, administrators change; the plaintext export needs an explicit yes. */
import { hashApiKey } from "../../src/security/api_key.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { ADMIN_KEY, body, type DashboardSetup, setupDashboard } from "./dashboard_helpers.ts";

/** Creates a key through the API and returns its plaintext and id. */
async function createKey(t: DashboardSetup, fields: Record<string, unknown>) {
  const created = await t.json("/dashboard/api/v2/keys", body("POST", fields));
  assertEquals(created.status, 201);
  return { plaintext: created.body.plaintext as string, id: (created.body.key as { id: number }).id };
}

/** Calls the dashboard API as a given key. */
function as(t: DashboardSetup, key: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  return t.api(path, { ...init, headers });
}

Deno.test("roles: a key limited to some models is a viewer; it reads state but changes and exports nothing", async () => {
  await using t = await setupDashboard();
  const viewer = await createKey(t, { name: "team-a", allowed_models: ["p/m1"] });
  const me = await (await as(t, viewer.plaintext, "/dashboard/api/me")).json();
  assertEquals(me.role, "viewer");
  const state = await as(t, viewer.plaintext, "/dashboard/api/v2/state/providers");
  assertEquals(state.status, 200);
  assert(!(await state.text()).includes("upstream-key-acct-a"), "state never holds a plaintext credential");
  const refused: [string, RequestInit][] = [
    ["/dashboard/api/v2/keys", body("POST", { name: "mine" })],
    ["/dashboard/api/settings", body("POST", { saver_headroom_url: "http://127.0.0.1:1" })],
    ["/dashboard/api/providers/acct-a/disable", { method: "POST" }],
    ["/dashboard/api/export?include_secrets=true", {}],
    ["/dashboard/api/request-logs/export", {}],
    ["/dashboard/api/request-logs/1", {}],
    // A text search reads the bodies: an administrator's; the other filters are not.
    ["/dashboard/api/v2/state/request-logs?q=secret", {}],
  ];
  for (const [path, init] of refused) {
    const response = await as(t, viewer.plaintext, path, init);
    assertEquals(response.status, 403, path);
    assertStringIncludes((await response.json()).error.message, "viewer");
  }
  assertEquals(t.gw.runtime.control.keys.length, 1, "the viewer minted no key");
  const filtered = await as(t, viewer.plaintext, "/dashboard/api/v2/state/request-logs?status=5xx&q=");
  assertEquals(filtered.status, 200);
  await filtered.body?.cancel();
  assertEquals(t.gw.runtime.control.settings.saver_headroom_url, "http://127.0.0.1:8787");
});

Deno.test("roles: an explicit administrator role wins over the allowlist, and auto goes back to it", async () => {
  await using t = await setupDashboard();
  const key = await createKey(t, { name: "lead", allowed_models: ["p/m1"], role: "admin" });
  const made = await as(t, key.plaintext, "/dashboard/api/v2/keys", body("POST", { name: "intern" }));
  assertEquals(made.status, 201);
  const unrestricted = await createKey(t, { name: "ops" });
  assertEquals((await (await as(t, unrestricted.plaintext, "/dashboard/api/me")).json()).role, "admin");
  const reset = await t.json(`/dashboard/api/keys/${key.id}`, body("POST", { role: null }));
  assertEquals((reset.body.key as { role: string; role_explicit: boolean }).role, "viewer");
  assertEquals(
    (await as(t, key.plaintext, "/dashboard/api/v2/keys", body("POST", { name: "x" }))).status,
    403,
  );
  const bad = await t.json(`/dashboard/api/keys/${key.id}`, body("POST", { role: "owner" }));
  assertEquals([bad.status, (bad.body.error as { field: string }).field], [400, "role"]);
});

Deno.test("export: the plaintext YAML needs include_secrets=true at the API; a plain GET has none", async () => {
  await using t = await setupDashboard();
  const plain = await t.api("/dashboard/api/export");
  assertEquals(plain.status, 200);
  assert(!(await plain.text()).includes("upstream-key-acct-a"), "the plain export holds no credential");
  const yes = await t.api("/dashboard/api/export?include_secrets=true");
  assertEquals(yes.status, 200);
  assertStringIncludes(await yes.text(), "upstream-key-acct-a");
});

Deno.test("sessions: a static key's session stores a keyed fingerprint, not its bare SHA-256", async () => {
  await using t = await setupDashboard();
  const login = await fetch(`${t.gw.url}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: ADMIN_KEY }),
  });
  await login.body?.cancel();
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  const rows = t.gw.runtime.control.store.db.prepare("SELECT static_key_hash FROM dashboard_sessions")
    .all() as {
      static_key_hash: string;
    }[];
  assertEquals(rows.length, 1);
  assert(rows[0].static_key_hash !== hashApiKey(ADMIN_KEY), "not the bare hash of the key");
  assert(rows[0].static_key_hash !== hashApiKey(hashApiKey(ADMIN_KEY)));
  const me = await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie } });
  assertEquals((await me.json()).role, "admin", "the session still resolves to the static key");
});
