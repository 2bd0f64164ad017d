/**
 * The Pricing screen's per-unit prices: builtin image and audio models show theirs; an override gets
 * per-image, per-second and per-character prices through the form, with errors beside the field (the
 * form's own checks and the server's), and editing one shows and replaces them.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type Dashboard, openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** The stored override of `model` (what the recorder prices with). */
function override(d: Dashboard, model: string) {
  return d.gw.runtime.control.pricing[model];
}

Deno.test({
  ...options,
  name: "pricing: per-image, per-second and per-character prices are shown, added, checked and edited",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui/pricing");
    const screen = d.page.locator("gw-pricing-screen");
    const search = screen.locator("input[type=search]");
    await search.fill("tts-1-hd");
    const tts = screen.locator("tr", { hasText: "tts-1-hd" }).locator("[data-testid=per-unit]");
    assertEquals(await tts.innerText(), "$30/M chars");
    await search.fill("whisper-1");
    assertEquals(
      await screen.locator("tr", { hasText: "whisper-1" }).locator("[data-testid=per-unit]").innerText(),
      "$0.0001/second",
    );
    await search.fill("dall-e-2");
    assertStringIncludes(
      await screen.locator("tr", { hasText: "dall-e-2" }).locator("[data-testid=per-unit]").innerText(),
      "@512x512 $0.018",
    );

    await search.fill("rerank-v3.5");
    assertEquals(
      await screen.locator("tr", { hasText: "rerank-v3.5" }).locator("[data-testid=per-unit]").innerText(),
      "$0.002/search unit",
    );

    await screen.locator("gw-page-header button", { hasText: "Add override" }).click();
    const dialog = screen.locator("gw-dialog[open]");
    await dialog.locator("input[name=model]").fill("p/pictures");
    await dialog.locator("input[name=input_per_mtok]").fill("0");
    await dialog.locator("input[name=output_per_mtok]").fill("0");
    await dialog.locator("input[name=per_second]").fill("0.002");
    await dialog.locator("input[name=per_mchar]").fill("12");
    await dialog.locator("input[name=per_search_unit]").fill("-1");
    // The form's own check: a line that is not `variant = USD`.
    await dialog.locator("textarea[name=per_image]").fill("hd@1024x1024 = cheap");
    await dialog.locator("button[type=submit]").click();
    const imageError = dialog.locator("gw-field[label='Per image $'] .error");
    assertStringIncludes(await imageError.innerText(), "must be 0 or more");
    assertEquals(
      await dialog.locator("gw-field[label='Rerank $/search unit'] .error").innerText(),
      "Enter 0 or more",
    );
    assertEquals(override(d, "p/pictures"), undefined, "nothing saved");
    await dialog.locator("input[name=per_search_unit]").fill("0.001");
    // The server's check: a variant that is no quality or size.
    await dialog.locator("textarea[name=per_image]").fill("hd@1024x1024 = 0.09\nnot a/variant = 0.01");
    assertEquals(await imageError.count(), 0, "the error goes when the field is edited");
    await dialog.locator("textarea[name=per_image]").fill("hd@1024x1024 = 0.09\nsize/1024 = 0.01");
    await dialog.locator("button[type=submit]").click();
    await imageError.waitFor();
    assertStringIncludes(await imageError.innerText(), "variant");
    assertEquals(override(d, "p/pictures"), undefined, "nothing saved");
    await dialog.locator("textarea[name=per_image]").fill("hd@1024x1024 = 0.09\n* = 0.05");
    await dialog.locator("button[type=submit]").click();
    const row = screen.locator("tr", { hasText: "p/pictures" });
    await row.waitFor();
    assertEquals(
      await row.locator("[data-testid=per-unit]").innerText(),
      "hd@1024x1024 $0.09, * $0.05 /image · $0.002/second · $12/M chars · $0.001/search unit",
    );
    assertEquals(override(d, "p/pictures")?.perImage, { "hd@1024x1024": 0.09, "*": 0.05 });
    assertEquals(override(d, "p/pictures")?.perMchar, 12);
    assertEquals(override(d, "p/pictures")?.perSearchUnit, 0.001);

    // Editing shows the stored prices; a cleared field removes that price.
    await row.locator("button", { hasText: "Edit" }).click();
    assertEquals(
      await dialog.locator("textarea[name=per_image]").inputValue(),
      "hd@1024x1024 = 0.09\n* = 0.05",
    );
    assertEquals(await dialog.locator("input[name=per_second]").inputValue(), "0.002");
    await d.shot("pricing.per-unit-form");
    await dialog.locator("textarea[name=per_image]").fill("* = 0.07");
    await dialog.locator("input[name=per_mchar]").fill("");
    await dialog.locator("button[type=submit]").click();
    await row.locator("[data-testid=per-unit]", {
      hasText: "$0.07/image · $0.002/second · $0.001/search unit",
    })
      .waitFor();
    assertEquals(override(d, "p/pictures")?.perImage, { "*": 0.07 });
    assertEquals(override(d, "p/pictures")?.perMchar, undefined);
    assertEquals(d.consoleErrors, []);
  },
});
