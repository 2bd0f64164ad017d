/** Browser checks of the provider form for the kinds of issue 16: free-tier presets and the Cursor bridge. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { openDashboard, openProviderForm, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name:
    "providers form: a free-tier preset fills the base URL and models; the Cursor kind asks for a bridge URL",
  fn: async () => {
    await using d = await openDashboard();
    const dialog = await openProviderForm(d);
    const select = dialog.locator("select[name=api_type]");
    for (
      const kind of ["cli_oauth", "cli_oauth_alt", "cloud_assistant_oauth", "subscription_shell", "free_tier"]
    ) {
      const disabled = await select.locator(`option[value=${kind}]`).evaluate((o) =>
        (o as HTMLOptionElement).disabled
      );
      assertEquals(disabled, false, `${kind} is callable`);
    }
    await select.selectOption("subscription_shell");
    assertEquals(
      await dialog.locator("gw-field", { has: d.page.locator("input[name=base_url]") }).getAttribute("label"),
      "Bridge URL",
    );
    assertStringIncludes(await dialog.locator(".kind-note").innerText(), "bridge");
    await select.selectOption("cli_oauth");
    assertStringIncludes(await dialog.locator(".kind-note").innerText(), "shut down by Google");

    await select.selectOption("free_tier");
    await dialog.locator("select[name=free_tier_preset]").selectOption("opencode_zen");
    assertEquals(await dialog.locator("input[name=base_url]").inputValue(), "https://opencode.ai/zen/v1");
    assert(
      (await dialog.locator("textarea[name=models]").inputValue()).includes("big-pickle"),
      "models filled",
    );
    await dialog.locator("input[name=id]").fill("free-a");
    await dialog.locator("input[name=prefix]").fill("free");
    await dialog.locator("button[type=submit]").click();
    const card = d.page.locator("gw-providers-screen [data-provider='free-a']");
    await card.waitFor();
    assert((await card.locator("dl").innerText()).includes("Free tier"), "the card names the kind");
    await d.shot("providers.free-tier");
    assertEquals(d.consoleErrors, []);
  },
});
