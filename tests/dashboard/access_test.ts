import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { ADMIN_KEY, body, type DashboardSetup, setupDashboard } from "./dashboard_helpers.ts";

async function login(url: string, key: string, next = "/dashboard/ui/keys") {
  return await fetch(`${url}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: key, next }),
  });
}

function cookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0];
}

Deno.test("dashboard access: header, x-api-key and ?key= credentials are accepted; nothing else is", async () => {
  await using t = await setupDashboard();
  const url = `${t.gw.url}/dashboard/api/v2/state/overview`;
  assertEquals(await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }).then(eat), 200);
  assertEquals(await fetch(url, { headers: { "x-api-key": ADMIN_KEY } }).then(eat), 200);
  assertEquals(await fetch(url, { headers: { "x-goog-api-key": ADMIN_KEY } }).then(eat), 200);
  assertEquals(await fetch(`${url}?key=${ADMIN_KEY}`).then(eat), 200);
  const denied = await fetch(url, { headers: { authorization: "Bearer wrong-key-123456" } });
  assertEquals(denied.status, 401);
  assertEquals(await denied.json(), { detail: "Dashboard authentication required" });
});

Deno.test("dashboard access: browsers without a session are sent to the sign-in page with next", async () => {
  await using t = await setupDashboard();
  const response = await fetch(`${t.gw.url}/dashboard/ui/keys?tab=1`, {
    redirect: "manual",
    headers: { accept: "text/html,application/xhtml+xml" },
  });
  await response.body?.cancel();
  assertEquals(response.status, 303);
  assertEquals(
    response.headers.get("location"),
    `/dashboard/login?next=${encodeURIComponent("/dashboard/ui/keys?tab=1")}`,
  );
  const page = await fetch(`${t.gw.url}/dashboard/login?next=/dashboard/ui/keys`);
  const html = await page.text();
  assertEquals(page.status, 200);
  assertStringIncludes(html, 'name="api_key"');
  assertStringIncludes(html, 'value="/dashboard/ui/keys"');
  assert(!/<script|https?:\/\//i.test(html), "sign-in page must be self-contained");
});

Deno.test("dashboard login: a good key sets a hashed session cookie and returns to next; bad keys get 401", async () => {
  await using t = await setupDashboard();
  const ok = await login(t.gw.url, ADMIN_KEY);
  assertEquals(ok.status, 303);
  assertEquals(ok.headers.get("location"), "/dashboard/ui/keys");
  const setCookie = ok.headers.get("set-cookie") ?? "";
  assertMatch(
    setCookie,
    /^gateway_dashboard_key=[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=2592000$/,
  );
  assert(!setCookie.includes(ADMIN_KEY), "the cookie must not hold the key");
  const cookie = cookieOf(ok);
  const state = await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie } });
  assertEquals((await state.json()).via, "cookie");
  const rows = t.gw.runtime.control.store.db.prepare("SELECT token_hash FROM dashboard_sessions").all();
  assertEquals(rows.length, 1);
  assert(!cookie.includes(String((rows[0] as { token_hash: string }).token_hash)));

  const bad = await login(t.gw.url, "not-a-key-at-all");
  assertEquals(bad.status, 401);
  assertStringIncludes(await bad.text(), "Invalid API key");
  const offsite = await login(t.gw.url, ADMIN_KEY, "https://evil.example/");
  await offsite.body?.cancel();
  assertEquals(offsite.headers.get("location"), "/dashboard/ui");
});

/** Signs in claiming (through X-Forwarded-Proto) that the browser used HTTPS; returns the Set-Cookie. */
async function loginViaHttpsProxy(url: string): Promise<string> {
  const response = await fetch(`${url}/dashboard/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
    body: JSON.stringify({ api_key: ADMIN_KEY, next: "/dashboard/ui" }),
  });
  await response.body?.cancel();
  return response.headers.get("set-cookie") ?? "";
}

/** A cross-origin mutation whose X-Forwarded-Host claims to be the origin's host. */
function forgedSameSite(t: DashboardSetup) {
  return t.json("/dashboard/api/v2/keys", {
    method: "POST",
    body: JSON.stringify({ name: "forged" }),
    headers: { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
  });
}

Deno.test("forwarded headers are ignored unless the peer is a configured trusted proxy", async () => {
  await using t = await setupDashboard();
  assert(
    !(await loginViaHttpsProxy(t.gw.url)).includes("; Secure"),
    "an untrusted X-Forwarded-Proto is ignored",
  );
  assertEquals(
    (await forgedSameSite(t)).status,
    403,
    "an untrusted X-Forwarded-Host cannot vouch for a site",
  );
  const tools = await t.json("/dashboard/api/v2/state/tools", {
    headers: { "x-forwarded-host": "evil.example" },
  });
  assertEquals((tools.body.data as { base_url: string }).base_url, t.gw.url);
});

Deno.test("forwarded headers from a trusted proxy set the public origin, Secure cookies and the same-site check", async () => {
  await using t = await setupDashboard("server:\n  trusted_proxies: [127.0.0.0/8, '::1']\n");
  assertStringIncludes(await loginViaHttpsProxy(t.gw.url), "; Secure");
  assertEquals((await forgedSameSite(t)).status, 201, "the trusted proxy's host is ours");
  const tools = await t.json("/dashboard/api/v2/state/tools", {
    headers: { "x-forwarded-host": "gw.example", "x-forwarded-proto": "https" },
  });
  assertEquals((tools.body.data as { base_url: string }).base_url, "https://gw.example");
});

Deno.test("dashboard login: can_login off refuses sign-in; turning it off or revoking ends sessions", async () => {
  await using t = await setupDashboard();
  const created = await t.json("/dashboard/api/v2/keys", body("POST", { name: "ops" }));
  const plaintext = created.body.plaintext as string;
  const id = (created.body.key as { id: number }).id;
  const cookie = cookieOf(await login(t.gw.url, plaintext));
  const me = () => fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie } }).then(eat);
  assertEquals(await me(), 200);
  await t.json(`/dashboard/api/keys/${id}`, body("POST", { can_login: false }));
  assertEquals(await me(), 401);
  const refused = await fetch(`${t.gw.url}/dashboard/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: plaintext }),
  });
  assertEquals(refused.status, 401);
  assertStringIncludes((await refused.json()).error.message, "cannot sign in");
  const headerUse = await fetch(`${t.gw.url}/dashboard/api/me`, {
    headers: { authorization: `Bearer ${plaintext}` },
  });
  assertEquals(headerUse.status, 401);
  await headerUse.body?.cancel();

  await t.json(`/dashboard/api/keys/${id}`, body("POST", { can_login: true }));
  const cookie2 = cookieOf(await login(t.gw.url, plaintext));
  assertEquals(await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie: cookie2 } }).then(eat), 200);
  // A revoke made behind the dashboard's back (CLI) is honoured too: the check runs against live state.
  t.gw.runtime.control.store.keys.revoke(id, Date.now());
  t.gw.runtime.control.reload();
  assertEquals(await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie: cookie2 } }).then(eat), 401);
});

Deno.test("dashboard logout deletes the session", async () => {
  await using t = await setupDashboard();
  const cookie = cookieOf(await login(t.gw.url, ADMIN_KEY));
  const out = await fetch(`${t.gw.url}/dashboard/logout`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie },
  });
  await out.body?.cancel();
  assertEquals(out.status, 303);
  assertStringIncludes(out.headers.get("set-cookie") ?? "", "Max-Age=0");
  assertEquals(await fetch(`${t.gw.url}/dashboard/api/me`, { headers: { cookie } }).then(eat), 401);
});

Deno.test("dashboard mutations from another origin are refused with 403; same origin passes", async () => {
  await using t = await setupDashboard();
  const cross = await t.json("/dashboard/api/v2/keys", {
    method: "POST",
    body: JSON.stringify({ name: "x" }),
    headers: { origin: "https://evil.example", "content-type": "application/json" },
  });
  assertEquals(cross.status, 403);
  const viaReferer = await t.json("/dashboard/api/v2/keys", {
    method: "POST",
    body: JSON.stringify({ name: "x" }),
    headers: { referer: "https://evil.example/page", "content-type": "application/json" },
  });
  assertEquals(viaReferer.status, 403);
  assertEquals(t.gw.runtime.control.keys.length, 0);
  const same = await t.json("/dashboard/api/v2/keys", {
    method: "POST",
    body: JSON.stringify({ name: "x" }),
    headers: { origin: t.gw.url, "content-type": "application/json" },
  });
  assertEquals(same.status, 201);
});

Deno.test("dashboard redirects: root, /dashboard and former page URLs lead to /dashboard/ui", async () => {
  await using t = await setupDashboard();
  for (
    const [from, to] of [
      ["/", "/dashboard/ui"],
      ["/dashboard", "/dashboard/ui"],
      ["/dashboard/", "/dashboard/ui"],
      ["/dashboard/analytics?days=7", "/dashboard/ui/analytics?days=7"],
      ["/dashboard/request-logs", "/dashboard/ui/request-logs"],
    ]
  ) {
    const response = await fetch(`${t.gw.url}${from}`, { redirect: "manual" });
    await response.body?.cancel();
    assertEquals([from, response.headers.get("location")], [from, to]);
  }
});

Deno.test("dashboard UI assets are behind dashboard access", async () => {
  await using t = await setupDashboard();
  const anonymous = await fetch(`${t.gw.url}/dashboard/ui/keys`);
  assertEquals(anonymous.status, 401);
  await anonymous.body?.cancel();
  const signedIn = await t.api("/dashboard/ui/keys");
  await signedIn.body?.cancel();
  assert(signedIn.status === 200 || signedIn.status === 503, `got ${signedIn.status}`);
});

async function eat(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}
