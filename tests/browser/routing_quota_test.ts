import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { externalRequests, openDashboard, sendTraffic, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);

Deno.test({
  ignore: ignore !== "",
  sanitizeOps: false,
  sanitizeResources: false,
  name:
    "Routing screen: headroom bars per window, reset countdowns, why an account goes last, next try order",
  fn: async () => {
    await using d = await openDashboard();
    const second = await startMockUpstream();
    try {
      second.script({ json: chatCompletion("from b") });
      const now = Date.now();
      d.gw.runtime.control.store.providers.upsert({
        id: "acct-b",
        prefix: "p",
        apiType: "chat_compat",
        baseUrl: `${second.url}/v1`,
        apiKey: "upstream-key-b",
        models: ["m1"],
        enabled: true,
      }, now);
      d.gw.runtime.control.reload();
      // acct-a reports its requests window empty and a subscription 5h window at 60 %.
      d.mock.script({
        json: chatCompletion("from a"),
        headers: {
          "x-ratelimit-limit-requests": "60",
          "x-ratelimit-remaining-requests": "0",
          "x-ratelimit-reset-requests": "15m0s",
          "anthropic-ratelimit-unified-status": "allowed",
          "anthropic-ratelimit-unified-5h-utilization": "0.6",
          "anthropic-ratelimit-unified-5h-reset": String(Math.floor(now / 1000) + 4 * 3600),
        },
      });
      await sendTraffic(d.gw, d.key, 1);
      await d.signIn("/dashboard/ui/routing");
      const card = d.page.locator("gw-routing-screen .card", { hasText: "p/*" });
      await card.locator("gw-quota-bars [data-testid=quota-window]").first().waitFor();
      const windows = await card.locator("gw-quota-bars [data-testid=quota-window]").evaluateAll((els) =>
        els.map((el) => ({
          id: el.getAttribute("data-window"),
          value: el.querySelector("[role=meter]")?.getAttribute("aria-valuenow"),
          text: el.textContent?.replace(/\s+/g, " ").trim(),
          // The countdown renders in its own shadow root.
          countdown: el.querySelector("gw-countdown")?.shadowRoot?.textContent?.trim() ?? "",
        }))
      );
      assertEquals(windows.map((w) => [w.id, w.value]), [["requests", "0"], ["5h", "40"]]);
      assertStringIncludes(windows[0].text!, "0/60 left");
      assertStringIncludes(windows[0].text!, "resets in");
      assert(/^1[45]m/.test(windows[0].countdown), windows[0].countdown);
      assert(/^[34]h/.test(windows[1].countdown), windows[1].countdown);
      assertStringIncludes(windows[1].text!, "40% left");
      const why = await card.locator("[data-testid=deprioritised]").textContent();
      assertStringIncludes(why!, "upstream requests window used up (60 of 60)");
      assertStringIncludes(
        await card.locator(".badge", { hasText: "deprioritised" }).textContent() ?? "",
        "deprioritised",
      );
      assertStringIncludes(
        await card.locator("[data-testid=try-order]").textContent() ?? "",
        "acct-b → acct-a",
      );
      await d.shot("routing-quota");
      assertEquals(d.consoleErrors, []);
      assertEquals(externalRequests(d.requests), []);
    } finally {
      await second.close();
    }
  },
});
