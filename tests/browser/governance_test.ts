/**
 * The governance screens in headless Chromium: key groups on the Keys screen, a key put in a group with
 * limits and an expiry (the columns show group, limits, expiry, last use and this period's spend), a
 * rotation showing the new secret once, and budgets by period with a webhook, its status and its alerts.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { waitFor } from "../helpers/wait.ts";
import { openDashboard, sendTraffic, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name: "dashboard: a key group, a key in it with limits and an expiry, its columns, and a rotation",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/keys");
    const page = d.page;
    await page.locator("gw-key-groups button", { hasText: "New group" }).click();
    const groupDialog = page.locator("gw-key-groups gw-dialog[open]");
    await groupDialog.locator("input[name=name]").fill("team-a");
    await groupDialog.locator("input[name=rpm]").fill("100");
    await groupDialog.locator("textarea[name=allowed_models]").fill("p/*");
    await groupDialog.locator("button[type=submit]").click();
    await page.locator("gw-key-groups td", { hasText: "team-a" }).waitFor();
    assertStringIncludes(await page.locator("gw-key-groups tbody tr").innerText(), "100 rpm");

    await page.locator("gw-page-header button", { hasText: "Create key" }).click();
    const dialog = page.locator("gw-keys-screen > gw-dialog[open]");
    await dialog.locator("input[name=name]").fill("ci-bot");
    await dialog.locator("select[name=group_id]").selectOption({ label: "team-a" });
    await dialog.locator("input[name=rpm]").fill("0");
    await dialog.locator("button[type=submit]").click();
    await dialog.locator("gw-field[label='Requests / min'] .error").waitFor();
    await dialog.locator("input[name=rpm]").fill("30");
    await dialog.locator("input[name=max_parallel]").fill("2");
    await dialog.locator("input[name=expires_at]").fill("2099-12-31");
    await dialog.locator("button[type=submit]").click();
    const secret = page.locator("[data-testid=new-key]");
    await secret.waitFor();
    const plaintext = await secret.innerText();
    await page.locator("gw-dialog[open] button", { hasText: "I copied it" }).click();
    const row = page.locator("gw-keys-screen tr", { hasText: "ci-bot" });
    await row.waitFor();
    assertStringIncludes(await row.innerText(), "team-a");
    assertStringIncludes(await row.locator("[data-testid=limits]").innerText(), "30 rpm");
    assertStringIncludes(await row.locator("[data-testid=limits]").innerText(), "2 at once");
    assertStringIncludes(await row.innerText(), "2099");
    assertStringIncludes(await row.innerText(), "never");
    // The key works (its group allows p/*), and its use and spend show after a refresh.
    await sendTraffic(d.gw, plaintext, 1);
    await waitFor(async () => {
      await page.reload();
      await row.waitFor();
      return !(await row.innerText()).includes("never");
    }, { what: "the key's last use on the Keys screen" });
    assertMatch(await row.locator("[data-testid=period-spend]").innerText(), /\$.*day/);

    await row.locator("button", { hasText: "Rotate" }).click();
    await secret.waitFor();
    const rotated = await secret.innerText();
    assert(rotated !== plaintext && rotated.startsWith("sk-gateway-"), rotated);
    await d.shot("keys.governance");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "dashboard: a weekly budget with a webhook shows its secret once, its spend, and the alert it raised",
  fn: async () => {
    await using d = await openDashboard();
    d.gw.management.pricing.set("m1", {
      inputPerMtok: 1000,
      outputPerMtok: 1000,
      cacheCreationPerMtok: 0,
      cacheReadPerMtok: 0,
    });
    await d.signIn("/dashboard/ui/budgets");
    const page = d.page;
    await page.locator("gw-period-budgets button", { hasText: "Add budget" }).click();
    const dialog = page.locator("gw-period-budgets gw-dialog[open]");
    await dialog.locator("select[name=period]").selectOption("week");
    await dialog.locator("input[name=limit]").fill("0.0001");
    await dialog.locator("input[name=warn_pct]").fill("50");
    await dialog.locator("input[name=webhook_url]").fill("http://127.0.0.1:9/hook");
    await dialog.locator("button[type=submit]").click();
    const secret = page.locator("[data-testid=webhook-secret]");
    await secret.waitFor();
    assertMatch(await secret.innerText(), /^whsec_/);
    await page.locator("gw-period-budgets gw-dialog[open] button", { hasText: "I copied it" }).click();
    const row = page.locator("gw-period-budgets tbody tr", { hasText: "signed POST" });
    await row.waitFor();
    assertStringIncludes(await row.innerText(), "Global");
    assertStringIncludes(await row.innerText(), "signed POST");
    // One request costs more than the limit: the budget is exceeded and its alert recorded.
    await sendTraffic(d.gw, d.key, 1);
    await waitFor(async () => {
      await page.reload();
      await row.waitFor();
      return (await row.innerText()).includes("exceeded") &&
        (await page.locator("[data-testid=budget-alerts] tbody tr").count()) > 0;
    }, { what: "the exceeded budget and its alert on the Budgets screen" });
    assertStringIncludes(await page.locator("[data-testid=budget-alerts]").innerText(), "exceeded");
    await d.shot("budgets.periods");
    const refused = await fetch(`${d.gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${d.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
    });
    assertEquals(refused.status, 429);
    assertEquals((await refused.json()).error.period, "week");
    assertEquals(d.consoleErrors, []);
  },
});
