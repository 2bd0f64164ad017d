import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";

/** Three round-robin accounts on prefix "p", each answering with its own id. */
async function threeAccounts(mocks?: MockUpstream[], dir?: string) {
  const own = mocks === undefined;
  mocks ??= [await startMockUpstream(), await startMockUpstream(), await startMockUpstream()];
  mocks.forEach((m, i) => m.script({ json: chatCompletion(`a${i + 1}`) }));
  const yaml = "providers:\n" +
    mocks.map((m, i) =>
      `  - id: a${i + 1}\n    prefix: p\n    api_type: chat_compat\n    base_url: ${m.url}/v1\n` +
      `    api_key: upstream-key-a${i + 1}\n    models: [m1]\n`
    ).join("");
  const gw = await startTestGateway(yaml, { dir });
  gw.runtime.control.store.settings.set("server_account_strategy", "round_robin");
  gw.runtime.control.reload();
  return {
    mocks,
    gw,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      if (own) { for (const m of mocks!) await m.close(); }
    },
  };
}

async function chat(gw: TestGateway, extra: Record<string, unknown>): Promise<string> {
  const response = await post(`${gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
    ...extra,
  });
  assertEquals(response.status, 200);
  return (await response.json()).choices[0].message.content;
}

Deno.test("requests with one prompt_cache_key stay on one account while round_robin rotates the rest", async () => {
  await using t = await threeAccounts();
  const first = await chat(t.gw, { prompt_cache_key: "conv-A" });
  const rest = [];
  for (let i = 0; i < 4; i++) {
    rest.push(await chat(t.gw, { prompt_cache_key: "conv-A" }));
    await chat(t.gw, {}); // unrelated traffic keeps rotating
  }
  assertEquals(rest, [first, first, first, first]);
  const other = new Set<string>();
  for (let i = 0; i < 3; i++) other.add(await chat(t.gw, {}));
  assertEquals(other.size, 3);
});

Deno.test("a Claude Code session (metadata.user_id) sticks to one account on the messages surface", async () => {
  await using t = await threeAccounts();
  const session = "user_abc123_account_9f0e_session_5b2c7d1e-aaaa-bbbb-cccc-123456789abc";
  const served: string[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await post(`${t.gw.url}/v1/messages`, {
      model: "p/m1",
      max_tokens: 16,
      metadata: { user_id: session },
      messages: [{ role: "user", content: `turn ${i}` }],
    });
    assertEquals(response.status, 200);
    served.push((await response.json()).content[0].text);
  }
  assertEquals(new Set(served).size, 1, served.join());
});

Deno.test("affinity moves when the bound account cools down, then sticks to the new account", async () => {
  await using t = await threeAccounts();
  const bound = await chat(t.gw, { prompt_cache_key: "conv-B" });
  const index = Number(bound.slice(1)) - 1;
  t.mocks[index].script({ json: { error: { message: "slow down" } }, status: 429 });
  const moved = await chat(t.gw, { prompt_cache_key: "conv-B" });
  assert(moved !== bound, `still on ${bound}`);
  t.mocks[index].script({ json: chatCompletion(bound) });
  for (let i = 0; i < 3; i++) assertEquals(await chat(t.gw, { prompt_cache_key: "conv-B" }), moved);
});

Deno.test("the prompt-cache mapping survives a restart", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-affinity-" });
  const mocks = [await startMockUpstream(), await startMockUpstream(), await startMockUpstream()];
  try {
    let bound: string;
    {
      await using t = await threeAccounts(mocks, dir);
      await chat(t.gw, {}); // move the rotation on, so the binding is not simply the first account
      bound = await chat(t.gw, { prompt_cache_key: "conv-C" });
      assertEquals(bound, "a2");
    }
    await using again = await threeAccounts(mocks, dir);
    assertEquals(await chat(again.gw, { prompt_cache_key: "conv-C" }), bound);
    // The stored row holds a hash, never the key.
    const rows = again.gw.runtime.control.store.db.prepare("SELECT key_hash FROM cache_affinity").all();
    assertEquals(rows.length, 1);
    assert(!JSON.stringify(rows).includes("conv-C"));
  } finally {
    for (const m of mocks) await m.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the openai SDK's Responses prompt_cache_key keeps a conversation on one account", async () => {
  const { default: OpenAI } = await import("openai");
  await using t = await threeAccounts();
  const client = new OpenAI({ baseURL: `${t.gw.url}/v1`, apiKey: "unused", maxRetries: 0 });
  const served: string[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await client.responses.create({
      model: "p/m1",
      input: `turn ${i}`,
      prompt_cache_key: "codex-session-42",
    });
    served.push(response.output_text);
  }
  assertEquals(new Set(served).size, 1, served.join());
  // Without the key the same calls rotate over all three accounts.
  const rotating = new Set<string>();
  for (let i = 0; i < 3; i++) {
    rotating.add((await client.responses.create({ model: "p/m1", input: "x" })).output_text);
  }
  assertEquals(rotating.size, 3);
});
