import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { externalRequests, openDashboard, openProviderForm, sendTraffic, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);

const SCREENS = [
  ["overview", "/dashboard/ui"],
  ["usage", "/dashboard/ui/usage"],
  ["analytics", "/dashboard/ui/analytics"],
  ["leaderboard", "/dashboard/ui/leaderboard"],
  ["request-logs", "/dashboard/ui/request-logs"],
  ["playground", "/dashboard/ui/playground"],
  ["inventory", "/dashboard/ui/inventory"],
  ["inventory-keys", "/dashboard/ui/inventory-keys"],
  ["inventory-add", "/dashboard/ui/inventory-add"],
  ["inventory-import", "/dashboard/ui/inventory-import"],
  ["providers", "/dashboard/ui/providers"],
  ["combos", "/dashboard/ui/combos"],
  ["routing", "/dashboard/ui/routing"],
  ["savers", "/dashboard/ui/savers"],
  ["budgets", "/dashboard/ui/budgets"],
  ["keys", "/dashboard/ui/keys"],
  ["tools", "/dashboard/ui/tools"],
  ["pricing", "/dashboard/ui/pricing"],
  ["settings", "/dashboard/ui/settings"],
] as const;

const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name: "dashboard: every screen renders after sign-in, without console errors or non-loopback requests",
  fn: async () => {
    await using d = await openDashboard();
    await sendTraffic(d.gw, d.key, 3);
    await d.signIn("/dashboard/ui/usage");
    assertEquals(new URL(d.page.url()).pathname, "/dashboard/ui/usage");
    for (const [name, path] of SCREENS) {
      // Navigate client-side through the sidebar, then reload to prove the deep link works too.
      await d.page.locator(`gw-sidebar a[href="${path}"]`).click();
      await d.page.waitForURL((url) => url.pathname === path);
      await d.page.reload();
      await d.page.waitForSelector("gw-app main gw-page-header");
      await d.page.waitForFunction(() =>
        !document.querySelector("gw-app")?.shadowRoot?.querySelector("main [aria-busy=true]")
      );
      await d.page.waitForLoadState("networkidle").catch(() => {});
      const heading = await d.page.locator("main gw-page-header").getAttribute("heading");
      assert(heading, `${name} has a heading`);
      const failed = await d.page.locator("main gw-empty[heading='Could not load this screen']").count();
      assertEquals(failed, 0, `${name} loaded its state`);
      await d.shot(name);
    }
    assertEquals(d.consoleErrors, [], "console errors");
    assertEquals(externalRequests(d.requests), [], "requests left loopback");
  },
});

Deno.test({
  ...options,
  name: "dashboard: dark theme and a 390px-wide phone layout render every screen",
  fn: async () => {
    await using d = await openDashboard({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    await d.signIn();
    for (const [name, path] of SCREENS) {
      await d.page.goto(`${d.gw.url}${path}`);
      await d.page.waitForSelector("gw-app main gw-page-header");
      await d.page.waitForLoadState("networkidle").catch(() => {});
      await d.shot(`${name}.mobile-dark`);
      const overflow = await d.page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert(overflow <= 1, `${name} does not scroll sideways at 390px (overflow ${overflow}px)`);
    }
    await d.page.locator("gw-topbar button[aria-label='Open navigation']").click();
    await d.page.waitForTimeout(250);
    await d.shot("menu.mobile-dark");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: signing in sends the browser back to the deep link it asked for",
  fn: async () => {
    await using d = await openDashboard();
    await d.page.goto(`${d.gw.url}/dashboard/ui/pricing`);
    await d.page.waitForURL((url) => url.pathname === "/dashboard/login");
    await d.page.locator("input[name=api_key]").fill(d.key);
    await Promise.all([
      d.page.waitForURL((u) => u.pathname === "/dashboard/ui/pricing"),
      d.page.locator("form button").first().click(),
    ]);
    await d.page.waitForSelector("gw-pricing-screen");
  },
});

Deno.test({
  ...options,
  name:
    "dashboard: a provider created through the form appears, and server field errors show beside the field",
  fn: async () => {
    await using d = await openDashboard();
    const dialog = await openProviderForm(d);
    const page = d.page;
    // A duplicate id is refused by the server (409 with field "id") and shown beside the ID field.
    await dialog.locator("input[name=id]").fill("acct-a");
    await dialog.locator("input[name=prefix]").fill("q");
    await dialog.locator("input[name=base_url]").fill(`${d.mock.url}/v1`);
    await dialog.locator("button[type=submit]").click();
    await dialog.locator("gw-field[label='ID'] .error").waitFor();
    assertEquals(
      await page.locator("gw-providers-screen [data-provider]").count(),
      1,
      "nothing stored on error",
    );
    await dialog.locator("input[name=id]").fill("acct-new");
    await dialog.locator("input[name=api_key]").fill("sk-upstream-test");
    await dialog.locator("textarea[name=models]").fill("m9, m10");
    await dialog.locator("button[type=submit]").click();
    await page.locator("gw-providers-screen [data-provider='acct-new']").waitFor();
    await d.shot("providers.created");
    const stored = d.gw.runtime.control.store.providers.get("acct-new");
    assertEquals(stored?.prefix, "q");
    // Test connection against the mock upstream.
    await page.locator("[data-provider='acct-a'] button", { hasText: "Test" }).click();
    // The result shows "Testing connection…" first; wait for the outcome, not just the element.
    const result = page.locator("[data-provider='acct-a'] .result", { hasText: /Connected|Failed/ });
    await result.waitFor();
    assertMatch(await result.innerText(), /Connected|Failed/);
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: creating a key shows the plaintext once with a copy button, and the key works",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/keys");
    const page = d.page;
    await page.locator("gw-page-header button", { hasText: "Create key" }).click();
    const dialog = page.locator("gw-dialog[open]");
    await dialog.locator("button[type=submit]").click();
    await dialog.locator("gw-field[label='Name'] .error").waitFor();
    await dialog.locator("input[name=name]").fill("laptop");
    await dialog.locator("input[name=daily_budget]").fill("2.5");
    await dialog.locator("button[type=submit]").click();
    const secret = page.locator("[data-testid=new-key]");
    await secret.waitFor();
    const plaintext = await secret.innerText();
    assertMatch(plaintext, /^sk-gateway-/);
    assert(await page.locator("gw-dialog[open] gw-copy-button").count() >= 1, "copy button shown");
    await d.shot("keys.created");
    await page.locator("gw-dialog[open] button", { hasText: "I copied it" }).click();
    await page.locator("gw-keys-screen td", { hasText: "laptop" }).waitFor();
    const models = await fetch(`${d.gw.url}/v1/models`, {
      headers: { authorization: `Bearer ${plaintext}` },
    });
    assertEquals(models.status, 200);
    await models.body?.cancel();
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: the command palette opens with Ctrl+K and /, jumps to screens and runs actions",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn();
    const page = d.page;
    await page.keyboard.press("Control+k");
    await page.locator("gw-palette[open] input").waitFor();
    await d.shot("palette");
    await page.keyboard.type("budg");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/dashboard/ui/budgets");
    await page.keyboard.press("/");
    await page.locator("gw-palette[open] input").waitFor();
    await page.keyboard.type("create api key");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/dashboard/ui/keys");
    await page.locator("gw-dialog[open] input[name=name]").waitFor();
    // "/" typed inside an input is text, not the palette.
    await page.locator("gw-dialog[open] input[name=name]").type("a/b");
    assertEquals(await page.locator("gw-palette[open]").count(), 0);
    assertEquals(await page.locator("gw-dialog[open] input[name=name]").inputValue(), "a/b");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Meta+k");
    await page.locator("gw-palette[open] input").waitFor();
    await page.keyboard.type("clear cooldowns");
    await page.keyboard.press("Enter");
    await page.locator("gw-toasts .toast").first().waitFor();
    assertMatch(await page.locator("gw-toasts .toast").first().innerText(), /[Cc]leared/);
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: the theme switch applies at once and persists across reloads",
  fn: async () => {
    await using d = await openDashboard({ colorScheme: "light" });
    await d.signIn();
    const page = d.page;
    assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "light");
    await page.locator("gw-topbar button[data-theme-choice=dark]").click();
    assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    await page.reload();
    await page.waitForSelector("gw-app gw-sidebar");
    assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assertEquals(await page.evaluate(() => localStorage.getItem("gw-theme")), "dark");
    await d.shot("overview.dark");
    await page.keyboard.press("Control+k");
    await page.keyboard.type("use system theme");
    await page.keyboard.press("Enter");
    assertEquals(await page.evaluate(() => localStorage.getItem("gw-theme")), "system");
    assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "light");
  },
});

Deno.test({
  ...options,
  name: "dashboard: the Usage screen updates live while requests flow",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/usage");
    const page = d.page;
    await page.locator("gw-usage-screen [data-live-status=live]").waitFor();
    assertEquals(await page.locator("gw-usage-screen [data-testid=live-feed] tbody tr").count(), 0);
    await sendTraffic(d.gw, d.key, 4);
    await page.waitForFunction(
      () => {
        const screen = document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-usage-screen");
        return (screen?.shadowRoot?.querySelectorAll("[data-testid=live-feed] tbody tr").length ?? 0) >= 4;
      },
      undefined,
      { timeout: 10_000 },
    );
    const row = await page.locator("gw-usage-screen [data-testid=live-feed] tbody tr").first().innerText();
    assertMatch(row, /p\/m1/);
    await d.shot("usage.live");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: request logs show captured requests, open their JSON and export as a JSON download",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/request-logs");
    const page = d.page;
    const enable = page.locator("gw-request-logs-screen button", { hasText: "Turn on logging" });
    if (await enable.count() > 0) {
      await enable.click();
      await page.locator("gw-request-logs-screen button", { hasText: "Turn on logging" }).waitFor({
        state: "detached",
      });
    }
    await sendTraffic(d.gw, d.key, 2);
    // A Responses-only field sent to a chat-completions upstream is lost, and the log says so.
    const lossy = await fetch(`${d.gw.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${d.key}` },
      body: JSON.stringify({ model: "p/m1", input: "hello", store: true }),
    });
    await lossy.body?.cancel();
    assertEquals(lossy.headers.get("x-gateway-warnings"), "dropped_field:store");
    d.gw.runtime.writer.flush();
    await page.reload();
    await page.locator("gw-request-logs-screen [data-testid=logs] tbody tr").first().waitFor();
    await page.locator("gw-request-logs-screen [data-testid=logs] tbody tr").first().click();
    await page.locator("gw-request-logs-screen gw-dialog[open] gw-json-view").first().waitFor();
    const warnings = page.locator("gw-request-logs-screen gw-dialog[open] [data-testid=log-warnings] li");
    assertEquals(await warnings.count(), 1, "the newest row's detail lists its warning");
    assert((await warnings.first().textContent())?.includes("dropped_field:store"));
    await d.shot("request-logs.detail");
    await page.keyboard.press("Escape");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("gw-request-logs-screen a[data-action=export-logs]").click(),
    ]);
    const path = await download.path();
    const exported = JSON.parse(await Deno.readTextFile(path));
    assert(Array.isArray(exported) && exported.length >= 2, "export holds the captured requests");

    // The server filters: only the Responses request is left, the address bar keeps the filter, and the
    // export link carries it.
    const rows = page.locator("gw-request-logs-screen [data-testid=logs] tbody tr");
    assert(await rows.count() >= 3, "the chat requests and the Responses one are listed");
    await page.locator("gw-request-logs-screen select[name=surface]").selectOption("responses");
    await page.waitForFunction(() => location.search.includes("surface=responses"));
    // Only the Responses request is left: the second row goes away.
    await rows.nth(1).waitFor({ state: "detached" });
    assertMatch(await rows.first().innerText(), /responses/);
    const href = await page.locator("gw-request-logs-screen a[data-action=export-logs]").getAttribute("href");
    assertMatch(href ?? "", /request-logs\/export\?surface=responses$/);
    await page.locator("gw-request-logs-screen select[name=status]").selectOption("5xx");
    await page.locator("gw-request-logs-screen gw-empty").waitFor();
    assertEquals(d.consoleErrors, []);
  },
});
