/**
 * Dashboard single sign-on as a user does it, in headless Chromium against a real OpenID provider
 * (`oidc-provider` on loopback, its development login and consent forms): the login page offers both the
 * provider and the API key; an administrator signs in and may change things; a viewer sees the screens but
 * every change is refused; an account of a domain not allowed is refused with the reason on the login page;
 * an API key still signs in on the same page. Each sign-in and refusal is in the audit log.
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { CLIENT_ID, CLIENT_SECRET, freePort, startProvider } from "../helpers/oidc_provider.ts";
import { CHROMIUM, CHROMIUM_ARGS, skipReason } from "./harness.ts";

const ignore = skipReason();
const ADMIN_KEY = "static-admin-key-sso-browser-0001";

/** Starts at the login page, takes the provider's button, signs in as `login` and consents. */
async function signInWithProvider(page: Page, gatewayUrl: string, login: string): Promise<void> {
  await page.goto(`${gatewayUrl}/dashboard/login`);
  await page.getByRole("link", { name: "Sign in with Test ID" }).click();
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any");
  await page.locator("button[type=submit]").click();
  // The consent form (the first sign-in of each account), then back to the gateway.
  await page.locator("button[type=submit]").click();
}

/** Calls the dashboard API from the page, as the UI does (same origin, the session cookie). */
function apiFromPage(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(async ([method, path, body]) => {
    const response = await fetch(path as string, {
      method: method as string,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.status;
  }, [method, path, body] as const);
}

Deno.test({
  ignore: ignore !== "",
  sanitizeOps: false,
  sanitizeResources: false,
  name:
    "SSO: OIDC sign-in in Chromium; the viewer looks but cannot change; a refused domain; API keys still work",
  async fn() {
    const mock = await startMockUpstream();
    const providerPort = freePort();
    const issuer = `http://127.0.0.1:${providerPort}`;
    const gw = await startTestGateway(
      chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }]) +
        `api_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n` +
        `sso:\n  display_name: Test ID\n  issuer: ${issuer}\n  client_id: ${CLIENT_ID}\n` +
        "  client_secret: ${GATEWAY_SSO_CLIENT_SECRET}\n  scopes: [groups]\n  allowed_domains: [example.com]\n" +
        "  role_claim: groups\n  admin_values: [gateway-admins]\n  viewer_values: [gateway-viewers]\n",
      { env: { GATEWAY_SSO_CLIENT_SECRET: CLIENT_SECRET } },
    );
    const provider = await startProvider(`${gw.url}/dashboard/sso/callback`, providerPort);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const contexts: BrowserContext[] = [];
    const fresh = async () => {
      const context = await browser.newContext();
      contexts.push(context);
      return await context.newPage();
    };
    try {
      // The administrator: lands on the dashboard and may change a setting.
      const admin = await fresh();
      await admin.goto(`${gw.url}/dashboard/login`);
      assertEquals(await admin.locator("input[name=api_key]").count(), 1, "the API key field is offered too");
      await signInWithProvider(admin, gw.url, "ada");
      await admin.waitForURL((url) => url.pathname.startsWith("/dashboard/ui"));
      await admin.waitForSelector("gw-app gw-sidebar");
      assertEquals(
        await apiFromPage(admin, "POST", "/dashboard/api/settings", { combo_strategy: "round_robin" }),
        200,
      );

      // The viewer: sees the screens, every change is refused.
      const viewer = await fresh();
      await signInWithProvider(viewer, gw.url, "vic");
      await viewer.waitForURL((url) => url.pathname.startsWith("/dashboard/ui"));
      await viewer.waitForSelector("gw-app gw-sidebar");
      await viewer.goto(`${gw.url}/dashboard/ui/keys`);
      await viewer.waitForSelector("gw-app gw-sidebar");
      assertEquals(
        await apiFromPage(viewer, "GET", "/dashboard/api/v2/state/keys"),
        200,
        "a viewer reads screens",
      );
      assertEquals(await apiFromPage(viewer, "POST", "/dashboard/api/v2/keys", { name: "nope" }), 403);
      assertEquals(
        await apiFromPage(viewer, "POST", "/dashboard/api/settings", { combo_strategy: "fallback" }),
        403,
      );

      // A domain that is not allowed: back on the login page with the reason, and no session.
      const refused = await fresh();
      await signInWithProvider(refused, gw.url, "mallory");
      await refused.waitForSelector(".error");
      const reason = await refused.locator(".error").innerText();
      assert(/domain/i.test(reason), reason);
      assert(new URL(refused.url()).pathname.startsWith("/dashboard/sso/callback"));
      const cookies = await refused.context().cookies();
      assert(
        !cookies.some((c) => c.name === "gateway_dashboard_key" && c.value !== ""),
        "no session was opened",
      );
      await refused.goto(`${gw.url}/dashboard/ui`);
      assertEquals(new URL(refused.url()).pathname, "/dashboard/login", "the dashboard sends it to sign in");

      // An API key still signs in on the same page.
      const keyed = await fresh();
      await keyed.goto(`${gw.url}/dashboard/login`);
      await keyed.locator("input[name=api_key]").fill(ADMIN_KEY);
      await Promise.all([
        keyed.waitForURL((url) => url.pathname.startsWith("/dashboard/ui")),
        keyed.locator("form button[type=submit]").click(),
      ]);
      await keyed.waitForSelector("gw-app gw-sidebar");

      const rows = gw.management.audit.list({ action: "signin" });
      const signins = rows.filter((r) => r.action === "signin" || r.action === "signin.failed")
        .map((r) => [r.action, r.actor, r.actorKind, r.target]).reverse();
      assertEquals(signins, [
        ["signin", "ada@example.com", "sso", "sso"],
        ["signin", "vic@Example.com", "sso", "sso"],
        ["signin", "admin", "static_key", "api_key"],
      ]);
      const failed = gw.management.audit.list({ action: "signin.failed" });
      assertEquals(failed.map((r) => [r.actorKind, r.target]), [["system", "sso"]]);
      assert(failed[0].after!.includes("domain_refused"));
      const changes = gw.management.audit.list({ action: "settings.create" });
      assertEquals(changes.map((r) => [r.actor, r.actorKind]), [["ada@example.com", "sso"]]);
      assert(!JSON.stringify(gw.management.audit.list({})).includes(CLIENT_SECRET));
    } finally {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await provider.close();
      await gw.stop();
      await mock.close();
    }
  },
});
