/**
 * The SSO routes' answers when sign-in cannot go on (the provider unreachable, a callback without state) and
 * the login page with and without `sso:`. The full sign-in is tests/browser/sso_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { setupDashboard } from "./dashboard_helpers.ts";
import { freePort } from "../helpers/oidc_provider.ts";

function ssoYaml(issuer: string): string {
  return `sso:\n  display_name: Test ID\n  issuer: ${issuer}\n  client_id: gateway-dashboard\n` +
    "  client_secret: not-a-real-secret-0123456789\n  allowed_domains: [example.com]\n  default_role: viewer\n";
}

Deno.test("SSO routes: the login page offers both ways only with sso:; an unreachable provider and a bare callback answer the login page with the reason", async () => {
  {
    await using plain = await setupDashboard();
    const page = await (await plain.api("/dashboard/login", { headers: { authorization: "" } })).text();
    assert(!page.includes("/dashboard/sso/start"), "no SSO button without sso:");
    const start = await plain.api("/dashboard/sso/start", { headers: { authorization: "" } });
    await start.body?.cancel();
    assertEquals(start.status, 401, "without sso: the route does not exist (behind sign-in like any other)");
  }
  // Nothing listens on the issuer's port: discovery fails.
  await using t = await setupDashboard(ssoYaml(`http://127.0.0.1:${freePort()}`));
  const login =
    await (await t.api("/dashboard/login?next=/dashboard/ui/keys", { headers: { authorization: "" } }))
      .text();
  assertStringIncludes(login, 'href="/dashboard/sso/start?next=%2Fdashboard%2Fui%2Fkeys"');
  assertStringIncludes(login, "Sign in with Test ID");
  assertStringIncludes(login, 'name="api_key"');

  const start = await t.api("/dashboard/sso/start?next=/dashboard/ui", { headers: { authorization: "" } });
  assertEquals(start.status, 502);
  const startPage = await start.text();
  assertStringIncludes(startPage, 'class="error"');
  assertStringIncludes(startPage, "Sign in with Test ID");

  const callback = await t.api("/dashboard/sso/callback?code=abc", { headers: { authorization: "" } });
  assertEquals(callback.status, 400);
  assertStringIncludes(await callback.text(), "no state");
  assert(
    !callback.headers.getSetCookie().some((c) =>
      c.startsWith("gateway_dashboard_key=") && !/Max-Age=0/.test(c)
    ),
  );
  const failed = t.gw.management.audit.list({ action: "signin.failed" });
  assertEquals(failed.map((r) => [r.target, JSON.parse(r.after!).failure]), [["sso", "state"]]);
});
