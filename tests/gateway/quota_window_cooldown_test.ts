import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { type MockReply, startMockUpstream } from "../helpers/mock_upstream.ts";

const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };

async function rejectedThenSecond(reply: MockReply) {
  const first = await startMockUpstream();
  const second = await startMockUpstream();
  first.script(reply);
  second.script({ json: chatCompletion("from second") });
  const gw = await startTestGateway(chatProvidersYaml([
    { id: "acct-1", prefix: "p", url: first.url },
    { id: "acct-2", prefix: "p", url: second.url },
  ]));
  return {
    first,
    second,
    gw,
    untilMs: () => gw.runtime.routing.active(Date.now()).find((c) => c.accountId === "acct-1")?.untilMs,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await first.close();
      await second.close();
    },
  };
}

Deno.test("a 429 with a rejected unified 5h window cools the account until that window resets", async () => {
  const reset = Math.floor(Date.now() / 1000) + 2 * 3600;
  await using t = await rejectedThenSecond({
    json: { type: "error", error: { type: "rate_limit_error", message: "limit" } },
    status: 429,
    headers: {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-5h-status": "rejected",
      "anthropic-ratelimit-unified-5h-reset": String(reset),
      "anthropic-ratelimit-unified-7d-status": "allowed",
      "anthropic-ratelimit-unified-7d-reset": String(reset + 86400),
    },
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, ask);
  assertEquals(response.status, 200);
  assertEquals((await response.json()).choices[0].message.content, "from second");
  const until = t.untilMs();
  assert(until !== undefined && until > reset * 1000 && until <= reset * 1000 + 30_000, `until ${until}`);
  // The next request does not touch the cooled account at all.
  await (await post(`${t.gw.url}/v1/chat/completions`, ask)).body?.cancel();
  assertEquals(t.first.requests.length, 1);
});

Deno.test("a Codex usage_limit_reached 429 cools the account until resets_at", async () => {
  const resetsAt = Math.floor(Date.now() / 1000) + 3 * 86400;
  await using t = await rejectedThenSecond({
    json: {
      error: {
        type: "usage_limit_reached",
        message: "The usage limit has been reached",
        resets_at: resetsAt,
      },
    },
    status: 429,
  });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ask)).status, 200);
  const until = t.untilMs();
  assert(
    until !== undefined && until > resetsAt * 1000 && until <= resetsAt * 1000 + 30_000,
    `until ${until}`,
  );
});

Deno.test("a 429 with x-ratelimit-remaining-requests 0 cools until x-ratelimit-reset-requests", async () => {
  const before = Date.now();
  await using t = await rejectedThenSecond({
    json: { error: { message: "Rate limit reached for requests" } },
    status: 429,
    headers: { "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "20m0s" },
  });
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ask)).status, 200);
  const until = t.untilMs();
  assert(until !== undefined && until >= before + 20 * 60_000 && until <= Date.now() + 20 * 60_000 + 30_000);
});
