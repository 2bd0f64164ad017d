/** The unpriced-models banner and lists leave out a model that an override has priced since. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

type Json = Record<string, unknown>;

Deno.test("unpriced models: an override added after the traffic drops the model from the banner and the lists", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: chatCompletion("hi", { prompt_tokens: 10, completion_tokens: 2 }) });
  const answer = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(answer.status, 200);
  await answer.body?.cancel();
  t.gw.runtime.writer.flush();
  const read = async () => {
    const analytics = (await t.json("/dashboard/api/v2/state/analytics?days=7")).body;
    const pricing = (await t.json("/dashboard/api/v2/state/pricing")).body;
    return {
      banner: (analytics.alerts as Json[]).some((a) => a.id === "unpriced:models"),
      analytics: ((analytics.data as Json).unpriced_models as Json[]).length,
      pricing: ((pricing.data as Json).unpriced as Json[]).length,
    };
  };
  assertEquals(await read(), { banner: true, analytics: 1, pricing: 1 });
  const priced = await t.json(
    "/dashboard/api/pricing",
    body("POST", { model: "m1", input_per_mtok: 1, output_per_mtok: 2 }),
  );
  assert(priced.status < 300, JSON.stringify(priced.body));
  assertEquals(await read(), { banner: false, analytics: 0, pricing: 0 });
});
