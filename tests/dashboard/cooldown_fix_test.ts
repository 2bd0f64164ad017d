/**
 * An operator fixes what made an account fail: the account serves the very next request instead of
 * waiting out the cooldown the old key or URL earned. One account's cooldown can be cleared by hand.
 */
import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { body, setupDashboard } from "./dashboard_helpers.ts";

const ASK = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };
const GOOD_KEY = "upstream-key-fixed-0001";

Deno.test("a provider with a wrong key cools down; fixing the key serves the very next request", async () => {
  await using t = await setupDashboard();
  t.mock.script({
    handler: (request) =>
      request.headers.get("authorization") === `Bearer ${GOOD_KEY}`
        ? Response.json(chatCompletion("Fixed."))
        : Response.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, {
          status: 401,
        }),
  });
  const refused = await post(`${t.gw.url}/v1/chat/completions`, ASK);
  await refused.body?.cancel();
  assertEquals(refused.status, 503);
  const cooling = await post(`${t.gw.url}/v1/chat/completions`, ASK);
  assertEquals(cooling.status, 503, "the wrong key's cooldown holds while nothing changed");
  // The spec's detail as it is, and beside it why each account rests, also after the first 503 has passed.
  const why = await cooling.json() as {
    detail: string;
    accounts: { account_id: string; status: number; message: string; since: number; until: number }[];
  };
  assertEquals(
    /^All accounts for 'p\/m1' are cooling down; retry after \d+s$/.test(why.detail),
    true,
    why.detail,
  );
  assertEquals(why.accounts.map((a) => [a.account_id, a.status]), [["acct-a", 401]]);
  assertEquals(why.accounts[0].message.includes("Incorrect API key provided"), true, why.accounts[0].message);
  assertEquals(why.accounts[0].until > why.accounts[0].since, true);
  assertEquals(t.gw.runtime.routing.active(Date.now()).map((c) => c.accountId), ["acct-a"]);

  const updated = await t.api("/dashboard/api/providers/acct-a", body("PUT", { api_key: GOOD_KEY }));
  await updated.body?.cancel();
  assertEquals(updated.status, 200);
  const served = await post(`${t.gw.url}/v1/chat/completions`, ASK);
  assertEquals(served.status, 200);
  assertEquals((await served.json()).choices[0].message.content, "Fixed.");
  assertEquals(t.gw.runtime.routing.active(Date.now()), []);
});

Deno.test("changing only the models of a cooling provider keeps its cooldown; clearing that one account lifts it", async () => {
  await using t = await setupDashboard();
  t.mock.script({ json: { error: { message: "overloaded" } }, status: 503 });
  const refused = await post(`${t.gw.url}/v1/chat/completions`, ASK);
  await refused.body?.cancel();
  assertEquals(t.gw.runtime.routing.active(Date.now()).length, 1);

  const updated = await t.api("/dashboard/api/providers/acct-a", body("PUT", { models: ["m1", "m2"] }));
  await updated.body?.cancel();
  assertEquals(t.gw.runtime.routing.active(Date.now()).length, 1, "nothing that made it fail changed");

  const cleared = await t.json("/dashboard/api/routing/accounts/acct-a/clear-cooldown", { method: "POST" });
  assertEquals([cleared.status, cleared.body.cleared], [200, true]);
  assertEquals(t.gw.runtime.routing.active(Date.now()), []);
  const again = await t.json("/dashboard/api/routing/accounts/acct-a/clear-cooldown", { method: "POST" });
  assertEquals([again.status, again.body.cleared], [200, false]);
});
