/** A viewer's dashboard is read-only: controls that would change something are disabled and say why. */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { createKey } from "../../src/features/keys/service.ts";
import { openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name: "viewer: a read-only banner, disabled Add / Create buttons with the reason, inert provider cards",
  fn: async () => {
    await using d = await openDashboard();
    const viewer = createKey(d.gw.runtime.control.store, {
      name: "browser-viewer",
      canLogin: true,
      allowedModels: [],
      role: "viewer",
    }, Date.now());
    d.gw.runtime.control.reload();
    const page = d.page;
    await page.goto(`${d.gw.url}/dashboard/login?next=${encodeURIComponent("/dashboard/ui/providers")}`);
    await page.locator("input[name=api_key], input[type=password]").first().fill(viewer.plaintext);
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith("/dashboard/ui")),
      page.locator("form button").first().click(),
    ]);
    const banner = page.locator("gw-app [data-read-only]");
    await banner.waitFor();
    assertStringIncludes(await banner.innerText(), "viewer");

    const add = page.locator("gw-providers-screen gw-page-header button", { hasText: "Add provider" });
    await page.locator("gw-providers-screen [data-provider='acct-a']").waitFor();
    assertEquals(await add.isDisabled(), true);
    assertStringIncludes((await add.getAttribute("title")) ?? "", "viewer");
    assert(
      await page.locator("gw-providers-screen [data-provider='acct-a']").evaluate((el) =>
        (el as HTMLElement).inert
      ),
      "the provider card's buttons are out of reach",
    );

    await page.goto(`${d.gw.url}/dashboard/ui/keys`);
    const create = page.locator("gw-keys-screen gw-page-header button", { hasText: "Create key" });
    await create.waitFor();
    assertEquals(await create.isDisabled(), true);

    await page.goto(`${d.gw.url}/dashboard/ui`);
    const refresh = page.locator("gw-overview-screen button", { hasText: "Refresh" });
    await refresh.waitFor();
    assertEquals(await refresh.isDisabled(), false, "reading stays possible");
    assertEquals(d.consoleErrors, []);
  },
});
