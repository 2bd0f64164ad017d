/**
 * The Audit Log screen as a user sees it: changes made through the dashboard API show up with who, where and
 * what; the filters narrow the rows (and stay in the address bar); a row opens its before and after with
 * secrets redacted; the CSV export downloads the filtered rows.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { openDashboard, skipReason } from "./harness.ts";

const options = { ignore: skipReason() !== "", sanitizeOps: false, sanitizeResources: false };
const UPSTREAM_SECRET = "sk-audit-browser-upstream-secret-0000001";

Deno.test({
  ...options,
  name:
    "dashboard: the Audit Log lists changes and sign-ins, filters them, shows before/after redacted, exports CSV",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui");
    const page = d.page;
    // Changes made from the page, as the screens make them.
    const statuses = await page.evaluate(async ([secret]) => {
      const send = (method: string, path: string, body: unknown) =>
        fetch(`/dashboard/api${path}`, {
          method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.status);
      return [
        await send("POST", "/v2/keys", { name: "ci-bot" }),
        await send("PUT", "/providers/acct-a", { api_key: secret }),
        await send("POST", "/settings", { combo_strategy: "round_robin" }),
      ];
    }, [UPSTREAM_SECRET]);
    assertEquals(statuses, [201, 200, 200]);

    await page.goto(`${d.gw.url}/dashboard/ui/audit`);
    const rows = page.locator("gw-audit-screen [data-testid=audit] tbody tr");
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    assert(texts[0].includes("settings.create") && texts[0].includes("browser-admin"), texts[0]);
    assert(
      texts.some((t) => t.includes("providers.update") && t.includes("providers:acct-a")),
      texts.join("\n"),
    );
    assert(texts.some((t) => t.includes("signin") && t.includes("api_key")), "the sign-in is listed");
    assert(texts.every((t) => t.includes("127.0.0.1")), "every row names the browser's address");

    // Filter by action prefix: only the key rows remain, and the filter is in the address bar.
    await page.locator("gw-audit-screen input[name=action]").fill("keys.");
    await page.locator("gw-audit-screen input[name=action]").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("action") === "keys.");
    await page.waitForFunction(() => {
      const screen = document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-audit-screen") ??
        document.querySelector("gw-audit-screen");
      const shown = [...(screen?.shadowRoot?.querySelectorAll("[data-testid=audit] tbody tr") ?? [])];
      return shown.length === 1 && shown[0].textContent?.includes("keys.create");
    });
    await page.locator("gw-audit-screen input[name=action]").fill("providers.update");
    await page.locator("gw-audit-screen input[name=action]").press("Enter");
    await page.waitForURL((url) => url.searchParams.get("action") === "providers.update");
    await rows.filter({ hasText: "providers.update" }).first().waitFor();
    assertEquals(await rows.count(), 1);

    // The row's before and after, the key redacted.
    await rows.first().locator("button", { hasText: "Details" }).click();
    const dialog = page.locator("gw-audit-screen gw-dialog[open]");
    await dialog.locator("gw-json-view").first().waitFor();
    const detail = (await dialog.locator("gw-json-view pre").allInnerTexts()).join("\n");
    assert(detail.includes("[redacted]"), detail.slice(0, 400));
    assert(!detail.includes(UPSTREAM_SECRET));
    await d.shot("audit.detail");
    await page.keyboard.press("Escape");

    // The export downloads what the filter shows.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("gw-audit-screen a[data-action=export-csv]").click(),
    ]);
    const csv = (await Deno.readTextFile(await download.path())).trimEnd().split("\r\n");
    assertEquals(csv[0], "id,time,actor,actor_kind,address,action,target,before,after");
    assertEquals(csv.length, 2);
    assert(csv[1].includes("providers.update") && !csv[1].includes(UPSTREAM_SECRET), csv[1]);
    assertEquals(d.consoleErrors, []);
  },
});
