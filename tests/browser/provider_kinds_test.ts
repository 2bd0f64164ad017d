/** Browser checks of the provider form for the kinds of issue 16: free-tier presets and the Cursor bridge. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { openDashboard, openProviderForm, skipReason } from "./harness.ts";
import { waitFor } from "../helpers/wait.ts";

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

Deno.test({
  ...options,
  name:
    "providers form: Kiro's region and Google's Cloud project are real optional fields, stored and shown again",
  fn: async () => {
    await using d = await openDashboard();
    const stored = (id: string) => d.gw.runtime.control.providers.find((p) => p.id === id);
    let dialog = await openProviderForm(d);
    const select = dialog.locator("select[name=api_type]");
    await select.selectOption("chat_compat");
    assertEquals(
      await dialog.locator("input[name=region], input[name=project]").count(),
      0,
      "API-key kinds have neither",
    );

    await select.selectOption("cloud_assistant_oauth");
    assertEquals(await dialog.locator("input[name=project]").count(), 0);
    await dialog.locator("input[name=id]").fill("kiro-eu");
    await dialog.locator("input[name=prefix]").fill("kiro");
    await dialog.locator("input[name=base_url]").fill("https://runtime.us-east-1.kiro.dev");
    // A subscription kind offers Connect; pasting a credential is folded away behind its summary.
    await dialog.locator("[data-sign-in] summary").click();
    await dialog.locator("input[name=api_key]").fill('{"accessToken": "kiro-at"}');
    await dialog.locator("input[name=region]").fill("not a region");
    await dialog.locator("button[type=submit]").click();
    assertStringIncludes(
      await dialog.locator("gw-field[label='AWS region'] .error").innerText(),
      "AWS region such as",
    );
    assertEquals(stored("kiro-eu"), undefined, "nothing saved with a bad region");
    await dialog.locator("input[name=region]").fill("eu-central-1");
    await dialog.locator("button[type=submit]").click();
    await d.page.locator("gw-providers-screen [data-provider='kiro-eu']").waitFor();
    assertEquals(stored("kiro-eu")?.oauth?.region, "eu-central-1");

    dialog = await openProviderForm(d);
    await dialog.locator("select[name=api_type]").selectOption("cli_oauth");
    assertEquals(await dialog.locator("input[name=region]").count(), 0);
    await dialog.locator("input[name=id]").fill("gcli-work");
    await dialog.locator("input[name=prefix]").fill("gcli");
    await dialog.locator("input[name=base_url]").fill("https://cloudcode-pa.googleapis.com");
    await dialog.locator("input[name=project]").fill("my-project-123");
    await dialog.locator("button[type=submit]").click();
    const card = d.page.locator("gw-providers-screen [data-provider='gcli-work']");
    await card.waitFor();
    assertEquals(stored("gcli-work")?.oauth?.project, "my-project-123");

    // Editing shows the stored project; clearing it goes back to discovery.
    await card.locator("button", { hasText: "Edit" }).click();
    dialog = d.page.locator("gw-dialog[open]");
    const project = dialog.locator("input[name=project]");
    assertEquals(await project.inputValue(), "my-project-123");
    await project.fill("");
    await dialog.locator("button[type=submit]").click();
    await waitFor(() => stored("gcli-work")?.oauth?.project === undefined, { what: "the project cleared" });
    assertEquals(stored("gcli-work")?.oauth?.project, undefined, "an empty project clears it");
    assertEquals(d.consoleErrors, []);
  },
});
