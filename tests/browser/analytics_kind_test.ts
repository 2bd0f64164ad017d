/**
 * Analytics by kind of work: chat and embeddings traffic through the gateway, then the Kind breakdown shows
 * requests, tokens and cost per kind, and the kind filter narrows the totals and the other breakdowns.
 */
import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { openDashboard, sendTraffic, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...options,
  name: "analytics: a Kind breakdown and a kind filter over chat and embeddings traffic",
  fn: async () => {
    await using d = await openDashboard();
    d.mock.script({
      handler: (request) =>
        request.path.endsWith("/embeddings")
          ? Response.json({
            object: "list",
            data: [{ object: "embedding", index: 0, embedding: [0.5, 0.25] }],
            model: "text-embedding-3-small",
            usage: { prompt_tokens: 40, total_tokens: 40 },
          })
          : Response.json(chatCompletion("hi", { prompt_tokens: 12, completion_tokens: 8 })),
    });
    await sendTraffic(d.gw, d.key, 3);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${d.gw.url}/v1/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${d.key}` },
        body: JSON.stringify({ model: "p/text-embedding-3-small", input: `text ${i}` }),
      });
      assertEquals(response.status, 200, await response.text());
    }
    d.gw.runtime.writer.flush();

    await d.signIn("/dashboard/ui/analytics?days=1");
    const screen = d.page.locator("gw-analytics-screen");
    await screen.locator("gw-segmented[label=Breakdown] button", { hasText: "Kind" }).click();
    await d.page.waitForURL((url) => url.searchParams.get("dimension") === "kind");
    const embedding = screen.locator("[data-testid=breakdown] tr[data-key=embedding] td");
    await embedding.first().waitFor();
    assertEquals(
      [
        await embedding.nth(1).innerText(),
        await embedding.nth(2).innerText(),
        await embedding.nth(3).innerText(),
      ],
      ["2", "80", "0"],
    );
    const chat = screen.locator("[data-testid=breakdown] tr[data-key=chat] td");
    assertEquals([await chat.nth(1).innerText(), await chat.nth(2).innerText()], ["3", "36"]);

    // Filtered to embeddings: the totals and a model breakdown hold only the embedding requests.
    await screen.locator("gw-segmented[label=Kind] button", { hasText: "Embedding" }).click();
    await screen.locator("gw-segmented[label=Breakdown] button", { hasText: "Model" }).click();
    const model = screen.locator("[data-testid=breakdown] tr[data-key='p/text-embedding-3-small']");
    await model.waitFor();
    assertEquals(
      await screen.locator("[data-testid=breakdown] tbody tr").count(),
      1,
      "chat models filtered out",
    );
    assertEquals(await model.locator("td").nth(1).innerText(), "2");
    const url = new URL(d.page.url());
    assertEquals([url.searchParams.get("kind"), url.searchParams.get("dimension")], ["embedding", "model"]);
    await screen.locator("gw-stat[label=Requests]", { hasText: "2" }).waitFor();
    assertEquals(d.consoleErrors, []);
  },
});
