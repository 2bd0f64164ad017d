import { createKey } from "../../src/features/keys/service.ts";
import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };

async function threeAccounts(settings: Record<string, string>) {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const gw = await startTestGateway(
    chatProvidersYaml(["a1", "a2", "a3"].map((id) => ({ id, prefix: "p", url: mock.url }))),
  );
  for (const [k, v] of Object.entries(settings)) gw.runtime.control.store.settings.set(k, v);
  gw.runtime.control.reload();
  const served = () =>
    mock.requests.map((r) => r.headers.get("authorization")!.replace("Bearer upstream-key-", ""));
  return {
    mock,
    gw,
    served,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

Deno.test("account strategy fill_first sends everything to the first healthy account", async () => {
  await using t = await threeAccounts({ server_account_strategy: "fill_first" });
  for (let i = 0; i < 3; i++) await (await post(`${t.gw.url}/v1/chat/completions`, ask)).body?.cancel();
  assertEquals(t.served(), ["a1", "a1", "a1"]);
});

Deno.test("account strategy round_robin rotates accounts sharing a prefix", async () => {
  await using t = await threeAccounts({ server_account_strategy: "round_robin" });
  for (let i = 0; i < 4; i++) await (await post(`${t.gw.url}/v1/chat/completions`, ask)).body?.cancel();
  assertEquals(t.served(), ["a1", "a2", "a3", "a1"]);
});

Deno.test("account strategy sticky_round_robin stays on an account for the sticky limit", async () => {
  await using t = await threeAccounts({
    server_account_strategy: "sticky_round_robin",
    server_account_sticky_limit: "2",
  });
  for (let i = 0; i < 5; i++) await (await post(`${t.gw.url}/v1/chat/completions`, ask)).body?.cancel();
  assertEquals(t.served(), ["a1", "a1", "a2", "a2", "a3"]);
});

Deno.test("sticky client routing keeps each client key on the account that served it", async () => {
  await using t = await threeAccounts({
    server_account_strategy: "round_robin",
    server_sticky_client_routing: "true",
  });
  const store = t.gw.runtime.control.store;
  const alice = createKey(store, { name: "alice", canLogin: false, allowedModels: [] }, Date.now()).plaintext;
  const bob = createKey(store, { name: "bob", canLogin: false, allowedModels: [] }, Date.now()).plaintext;
  t.gw.runtime.control.reload();
  const as = (key: string) =>
    post(`${t.gw.url}/v1/chat/completions`, ask, { authorization: `Bearer ${key}` });
  for (const key of [alice, bob, alice, bob, alice]) await (await as(key)).body?.cancel();
  const [a1, b1, a2, b2, a3] = t.served();
  assertEquals([a2, a3], [a1, a1]);
  assertEquals(b2, b1);
});
