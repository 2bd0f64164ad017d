import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name:
    "providers screen: a subscription card shows the account, expiry and last refresh error, never a token",
  fn: async () => {
    await using d = await openDashboard();
    const blob = {
      access_token: "sk-ant-oat01-ACCESS-SECRET-VALUE",
      refresh_token: "sk-ant-ort01-REFRESH-SECRET-VALUE",
      expires_at: 1_900_000_000,
      email: "me@example.com",
    };
    d.gw.management.providers.create({
      id: "claude-sub",
      prefix: "claude",
      apiType: "messages_oauth",
      baseUrl: `${d.mock.url}`,
      apiKey: JSON.stringify(blob),
      models: ["claude-sonnet-4-5"],
      enabled: true,
    });
    d.gw.runtime.control.store.credentials.recordError(
      "provider:claude-sub",
      "Claude subscription: token refresh answered HTTP 400 (invalid_grant); the refresh token is no longer valid: sign in again",
      Date.now(),
    );
    await d.signIn("/dashboard/ui/providers");
    const card = d.page.locator("gw-providers-screen [data-provider='claude-sub']");
    await card.locator("[data-credential]").waitFor();
    const text = (await card.locator("[data-credential]").innerText()) + " " +
      (await card.locator(".result.bad").innerText());
    assertStringIncludes(text, "me@example.com");
    assertStringIncludes(text, "refreshed automatically");
    assertStringIncludes(text, "sign in again");
    const html = await d.page.content();
    const shadow = await card.evaluate((el) => el.shadowRoot?.innerHTML ?? el.innerHTML);
    for (const secret of ["ACCESS-SECRET-VALUE", "REFRESH-SECRET-VALUE"]) {
      assert(
        !html.includes(secret) && !shadow.includes(secret) && !text.includes(secret),
        "a token is on the page",
      );
    }
    await d.shot("providers.subscription");
  },
});

Deno.test({
  ...options,
  name:
    "routing screen: each subscription account shows its credential state (valid, expiring, refresh failed, needs sign-in)",
  fn: async () => {
    await using d = await openDashboard();
    const nowS = Math.floor(Date.now() / 1000);
    const account = (id: string, apiKey: string) =>
      d.gw.management.providers.create({
        id,
        prefix: "sub",
        apiType: "messages_oauth",
        baseUrl: `${d.mock.url}`,
        apiKey,
        models: ["claude-sonnet-4-5"],
        enabled: true,
      });
    account(
      "renewable",
      JSON.stringify({ access_token: "a1", refresh_token: "r1", expires_at: nowS + 86_400 }),
    );
    // A long-lived token without a refresh token, 20 minutes from its end: only a new sign-in renews it.
    account("ending", JSON.stringify({ access_token: "a2", expires_at: nowS + 1_200 }));
    account("failing", JSON.stringify({ access_token: "a3", refresh_token: "r3", expires_at: nowS + 60 }));
    account("dead", JSON.stringify({ access_token: "a4", refresh_token: "r4", expires_at: nowS + 60 }));
    account("unsigned", "");
    const credentials = d.gw.runtime.control.store.credentials;
    credentials.recordError(
      "provider:failing",
      "Claude subscription: token refresh failed: HTTP 503",
      Date.now(),
    );
    credentials.recordError(
      "provider:dead",
      "Claude subscription: token refresh answered HTTP 400 (invalid_grant): sign in again",
      Date.now(),
    );
    await d.signIn("/dashboard/ui/routing");
    const screen = d.page.locator("gw-routing-screen");
    await screen.locator("[data-credential]").first().waitFor();
    const badges = await screen.locator(".account").evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector(".id")?.textContent ?? "",
        row.querySelector("[data-credential]")?.getAttribute("data-credential") ?? "",
      ])
    );
    const byId = Object.fromEntries(badges);
    assertEquals(
      [byId.renewable, byId.ending, byId.failing, byId.dead, byId.unsigned],
      ["valid", "expiring", "refresh_failed", "needs_sign_in", "needs_sign_in"],
    );
    // Accounts that need a new sign-in can only fail: they are not counted as ready.
    assertStringIncludes(await screen.locator(".card", { hasText: "sub/*" }).innerText(), "3/5 ready");
    await d.shot("routing.credential-states");
  },
});
