import { assert, assertStringIncludes } from "../helpers/assert.ts";
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
