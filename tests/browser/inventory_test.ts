import { assert, assertEquals } from "../helpers/assert.ts";
import { openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

const KEY_A = "sk-browser-inventory-key-aaaa0001";
const KEY_B = "sk-browser-inventory-key-bbbb0002";

Deno.test({
  ...options,
  name: "inventory: Add Keys shows a result per pasted line and never echoes a key",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/inventory-add");
    const screen = d.page.locator("gw-inventory-add-screen");
    await screen.locator("textarea[name=keys]").fill(`${KEY_A}\n${KEY_B}\nshort\n`);
    await screen.locator("select[name=provider]").selectOption("p");
    await screen.locator("input[name=label]").fill("browser batch");
    await screen.locator("button[type=submit]").click();
    const rows = screen.locator("[data-testid=ingest-results] tbody tr");
    await rows.nth(2).waitFor();
    assertEquals(await rows.count(), 3);
    const statuses = await rows.locator("td:nth-child(4)").allTextContents();
    assertEquals(statuses.map((s) => s.trim()), ["registered", "registered", "rejected"]);
    const text = await screen.locator("[data-testid=ingest-results]").innerText();
    assert(text.includes("key is shorter than 16 characters"), text);
    assert(text.includes("sk-…0001"), "the masked key");
    assert(!text.includes(KEY_A) && !text.includes(KEY_B), "results show masked keys only");
    assertEquals(await screen.locator("textarea[name=keys]").inputValue(), "", "the pasted keys are cleared");
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "inventory: Import JSON takes a pasted export and lists each key's result",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/inventory-import");
    const screen = d.page.locator("gw-inventory-import-screen");
    const doc = { keys: [{ key_value: KEY_A, provider_id: "p", key_label: "imported" }, { key: "x" }] };
    await screen.locator("textarea[name=json]").fill(JSON.stringify(doc));
    await screen.locator("button[type=submit]").click();
    const rows = screen.locator("[data-testid=ingest-results] tbody tr");
    await rows.nth(1).waitFor();
    const cells = await rows.first().locator("td").allTextContents();
    assertEquals([cells[2].trim(), cells[3].trim()], ["imported", "registered"]);
    assertEquals((await rows.nth(1).locator("td:nth-child(4)").textContent())?.trim(), "rejected");
    await screen.locator("textarea[name=json]").fill("{not json");
    await screen.locator("button[type=submit]").click();
    await screen.locator(".form-error").waitFor();
    assertEquals(d.consoleErrors, []);
  },
});

Deno.test({
  ...options,
  name: "inventory: All Keys filters by provider, status, search and archived, and archives from the list",
  fn: async () => {
    await using d = await openDashboard({ checkProviderKeys: true });
    const inventory = d.gw.management.inventory;
    inventory.addText(`${KEY_A}\n${KEY_B}`, { provider: "p", label: "team-a" });
    inventory.addText("zq8-unknown-shape-key-77777777", { label: "mystery" });
    await inventory.checks.idle();
    await d.signIn("/dashboard/ui/inventory-keys");
    const screen = d.page.locator("gw-inventory-keys-screen");
    const rows = screen.locator("[data-testid=inventory-keys] tbody tr");
    const labels = async () =>
      (await rows.locator("td:nth-child(3)").allTextContents()).map((s) => s.trim()).sort();
    await rows.first().waitFor();
    // The provider's own key is mirrored too ("via Providers: acct-a").
    assertEquals(await labels(), ["mystery", "team-a", "team-a", "via Providers: acct-a"]);

    await screen.locator("select[name=status]").selectOption("unidentified");
    await d.page.waitForURL((u) => u.searchParams.get("status") === "unidentified");
    await d.page.waitForFunction(() =>
      document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-inventory-keys-screen")?.shadowRoot
        ?.querySelectorAll("[data-testid=inventory-keys] tbody tr").length === 1
    );
    assertEquals(await labels(), ["mystery"]);

    await screen.locator("select[name=status]").selectOption("");
    await screen.locator("select[name=provider]").selectOption("p");
    await screen.locator("input[name=search]").fill("team");
    await d.page.waitForURL((u) =>
      u.searchParams.get("search") === "team" && u.searchParams.get("provider") === "p"
    );
    await d.page.waitForFunction(() =>
      document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-inventory-keys-screen")?.shadowRoot
        ?.querySelectorAll("[data-testid=inventory-keys] tbody tr").length === 2
    );
    assertEquals(await labels(), ["team-a", "team-a"]);

    await rows.first().getByRole("button", { name: "Archive" }).click();
    await d.page.waitForFunction(() =>
      document.querySelector("gw-app")?.shadowRoot?.querySelector("gw-inventory-keys-screen")?.shadowRoot
        ?.querySelectorAll("[data-testid=inventory-keys] tbody tr").length === 1
    );
    await screen.locator("input[name=archived]").check();
    await d.page.waitForURL((u) => u.searchParams.get("archived") === "true");
    await rows.first().getByRole("button", { name: "Restore" }).waitFor();
    assertEquals(await labels(), ["team-a"]);
    const table = await screen.locator("[data-testid=inventory-keys]").innerText();
    assert(table.includes("team-a") && !table.includes(KEY_A), "the list shows masked keys only");
    assertEquals(d.consoleErrors, []);
  },
});
