/** The combos screen flags a member as "no provider" only when nothing can route it. */
import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

Deno.test("combos: a model the prefix's provider does not list is routable; an unknown prefix is not", async () => {
  await using t = await setupDashboard();
  const created = await t.json(
    "/dashboard/api/combos",
    body("POST", { name: "outer", models: ["p/not-listed", "zz/m", "p/m1"] }),
  );
  assertEquals(created.status, 201, JSON.stringify(created.body));
  assertEquals((created.body.combo as { unroutable: string[] }).unroutable, ["zz/m"]);
  // The answer routing gives agrees: a listed-or-not model under a served prefix reaches the upstream.
  t.mock.script({ json: chatCompletion("routed", { prompt_tokens: 1, completion_tokens: 1 }) });
  const routed = await fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "p/not-listed", messages: [{ role: "user", content: "hi" }] }),
  });
  assertEquals(routed.status, 200, "p/not-listed went upstream");
  assertEquals((await routed.json()).choices[0].message.content, "routed");
});
