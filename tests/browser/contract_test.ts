/** Browser checks of the typed dashboard contract: provider kinds from the server, the shared screen list, layout. */
import { SCREENS, screenTag } from "../../src/dashboard/screens.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { openDashboard, openProviderForm, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name:
    "providers form: offers exactly the server's kinds, none greyed out, and adds a responses_native provider",
  fn: async () => {
    await using d = await openDashboard();
    const dialog = await openProviderForm(d);
    const page = d.page;
    const select = dialog.locator("select[name=api_type]");
    const offered = await select.locator("option").evaluateAll((options) =>
      options.map((o) => ({
        value: (o as HTMLOptionElement).value,
        disabled: (o as HTMLOptionElement).disabled,
      }))
    );
    const state = await fetch(`${d.gw.url}/dashboard/api/v2/state/providers`, {
      headers: { authorization: `Bearer ${d.key}` },
    }).then((r) => r.json());
    const fromServer = (state.data.api_types as { api_type: string }[])
      .map((t) => ({ value: t.api_type, disabled: false }));
    assertEquals(offered, fromServer, "the select lists exactly the server's kinds");
    assert(offered.some((o) => o.value === "responses_native" && !o.disabled), "responses_native is offered");

    await select.selectOption("responses_native");
    await dialog.locator("input[name=id]").fill("resp-a");
    await dialog.locator("input[name=prefix]").fill("r");
    await dialog.locator("input[name=base_url]").fill(`${d.mock.url}/v1`);
    await dialog.locator("input[name=api_key]").fill("sk-upstream-test");
    await dialog.locator("textarea[name=models]").fill("gpt-x");
    await dialog.locator("button[type=submit]").click();
    const card = page.locator("gw-providers-screen [data-provider='resp-a']");
    await card.waitFor();
    assert((await card.locator("dl").innerText()).includes("Responses API"), "the card names the kind");
    await d.shot("providers.responses-native");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "shell: the sidebar spans the window's height at the bottom of a long page",
  fn: async () => {
    await using d = await openDashboard({ viewport: { width: 1280, height: 700 } });
    await d.signIn("/dashboard/ui/pricing");
    const page = d.page;
    await page.locator("gw-pricing-screen table").first().waitFor();
    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    assert(scrollable > 700, `the pricing page is long enough to scroll (${scrollable}px beyond the window)`);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
    const box = await page.locator("gw-sidebar").boundingBox();
    assert(box, "sidebar is shown");
    assertEquals(Math.round(box.y), 0, "the sidebar stays at the top of the window");
    assertEquals(Math.round(box.height), 700, "the sidebar is as tall as the window");
    const foot = await page.locator("gw-sidebar .foot").boundingBox();
    assert(foot && foot.y + foot.height <= 700.5, "the sidebar's footer is inside the window");
    // The column behind it reaches the bottom of the page (full-page screenshots show no gap under it).
    const column = await page.evaluate(() => {
      const side = document.querySelector("gw-app")?.shadowRoot?.querySelector(".side");
      const rect = side?.getBoundingClientRect();
      return { height: rect?.height ?? 0, page: document.documentElement.scrollHeight };
    });
    assertEquals(Math.round(column.height), column.page, "the sidebar column is as tall as the page");
    await d.shot("sidebar.long-page");
  },
});

Deno.test({
  ...options,
  name: "shell: every screen of the shared list has its element, and unknown slugs say not found",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn();
    const tags = SCREENS.map((s) => screenTag(s.id));
    const missing = await d.page.evaluate((names) => names.filter((n) => !customElements.get(n)), tags);
    assertEquals(missing, []);
    const links = await d.page.locator("gw-sidebar nav a").count();
    assertEquals(links, SCREENS.length, "the sidebar links every screen");
    await d.page.goto(`${d.gw.url}/dashboard/ui/no-such-screen`);
    await d.page.locator("gw-empty[heading='No such screen']").waitFor();
  },
});
