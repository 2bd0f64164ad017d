import OpenAI from "openai";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startSubscriptionMock, type SubscriptionMock } from "../helpers/subscription_mock.ts";

/** A JWT whose claims carry the ChatGPT account id (unsigned: the gateway only reads claims). */
function idToken(accountId: string): string {
  const b64 = (v: unknown) =>
    btoa(JSON.stringify(v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${b64({ alg: "none" })}.${
    b64({
      email: "me@example.com",
      "https://api.openai.com/auth": { chatgpt_account_id: accountId, chatgpt_plan_type: "plus" },
    })
  }.sig`;
}

function codexYaml(mock: SubscriptionMock, accounts: { id: string; blob: string }[]): string {
  const providers = accounts.map((a) =>
    `  - id: ${a.id}
    prefix: codex
    api_type: responses_oauth
    base_url: ${mock.url}/backend-api/codex
    api_key: '${a.blob}'
    models: [gpt-5, overloaded, limited, empty-output]
    oauth: {token_url: "${mock.url}/oauth/token"}
`
  ).join("");
  return `providers:\n${providers}`;
}

async function setup(
  expiresInS: number,
  accounts = 1,
): Promise<{ mock: SubscriptionMock; gw: TestGateway; client: OpenAI }> {
  const mock = await startSubscriptionMock();
  const list = Array.from({ length: accounts }, (_, i) => {
    const pair = mock.issue(expiresInS);
    return { id: `codex-${i + 1}`, blob: JSON.stringify({ ...pair, id_token: idToken(`acct-${i + 1}`) }) };
  });
  const gw = await startTestGateway(codexYaml(mock, list));
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return { mock, gw, client };
}

Deno.test("responses_oauth: the openai SDK gets a non-stream answer buffered from the always-stream backend", async () => {
  const { mock, gw, client } = await setup(864_000);
  try {
    const answer = await client.chat.completions.create({
      model: "codex/gpt-5",
      messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }],
      temperature: 0.2,
      max_tokens: 50,
    });
    assertEquals(answer.choices[0].message.content, "codex says hi (gpt-5)");
    const call = mock.calls.find((c) => c.path === "/backend-api/codex/responses")!;
    assertEquals(call.headers.get("chatgpt-account-id"), "acct-1");
    assertEquals(call.headers.get("originator"), "codex_cli_rs");
    assertEquals(call.body.stream, true);
    assertEquals(call.body.store, false);
    assertEquals(call.body.temperature, undefined);
    assertEquals(call.body.max_output_tokens, undefined);
    assert(Array.isArray(call.body.include) && call.body.include.includes("reasoning.encrypted_content"));
    assertEquals(mock.ledger.refreshes, 0, "a fresh token is not refreshed");
    // The x-codex-* rate-limit headers reached quota-aware routing.
    const headroom = gw.runtime.routing.quota.headroom("codex-1", Date.now());
    assert(headroom !== undefined && JSON.stringify(headroom).includes("primary"), JSON.stringify(headroom));
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("responses_oauth: streams through the responses SDK, and an empty final output is rebuilt from items", async () => {
  const { mock, gw, client } = await setup(864_000);
  try {
    const stream = await client.responses.create({ model: "codex/gpt-5", input: "hi", stream: true });
    let text = "";
    for await (const event of stream) if (event.type === "response.output_text.delta") text += event.delta;
    assertEquals(text, "codex says hi (gpt-5)");
    const rebuilt = await client.responses.create({ model: "codex/empty-output", input: "hi" });
    assertEquals(rebuilt.output_text, "rebuilt from items");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("responses_oauth: an expiring credential is refreshed once, rotated, written back, and used", async () => {
  const { mock, gw, client } = await setup(60);
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          client.chat.completions.create({
            model: "codex/gpt-5",
            messages: [{ role: "user", content: "hi" }],
          }),
      ),
    );
    assertEquals(answers.length, 50);
    assertEquals(mock.ledger.refreshes, 1, "50 concurrent requests cause exactly one refresh");
    assertEquals(mock.ledger.reuses, 0);
    const stored = gw.runtime.control.store.providers.get("codex-1")!.apiKey;
    const blob = JSON.parse(stored);
    assert(mock.ledger.validRefresh.has(blob.refresh_token), "the rotated refresh token is stored");
    assert(blob.expires_at > Date.now() / 1000 + 800_000);
    const state = gw.runtime.control.store.credentials.states().get("provider:codex-1");
    assert(state?.lastRefreshAt !== null && state?.lastError === null);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

for (const stream of [false, true]) {
  Deno.test(`responses_oauth: an overload inside a 200 stream falls back like an error status (stream: ${stream})`, async () => {
    const { mock, gw, client } = await setup(864_000, 2);
    try {
      await assertRejectsStatus(
        client.chat.completions.create({
          model: "codex/overloaded",
          messages: [{ role: "user", content: "hi" }],
          stream,
        }),
        503,
      );
      const tried = mock.calls.filter((c) => c.path === "/backend-api/codex/responses").length;
      assertEquals(tried, 2, "both accounts were tried");
    } finally {
      await gw.stop();
      await mock.close();
    }
  });
}

Deno.test("responses_oauth: 429 usage_limit_reached cools each account until resets_in_seconds", async () => {
  const { mock, gw, client } = await setup(864_000, 2);
  try {
    await assertRejectsStatus(
      client.chat.completions.create({ model: "codex/limited", messages: [{ role: "user", content: "hi" }] }),
      503,
    );
    const cooling = gw.runtime.routing.active(Date.now());
    assertEquals(cooling.map((c) => c.accountId).sort(), ["codex-1", "codex-2"]);
    for (const c of cooling) assert(c.remainingSeconds > 3000, `cooled ${c.remainingSeconds}s`);
    assertEquals(mock.ledger.refreshes, 0, "a 429 never triggers a refresh");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

async function assertRejectsStatus(promise: Promise<unknown>, status: number): Promise<void> {
  const error = await Promise.resolve(promise).then(() => null, (e) => e);
  assert(error !== null, "expected a failure");
  assertEquals((error as { status?: number }).status, status);
  assertStringIncludes(String((error as Error).message), "");
}

Deno.test("responses_oauth: a client without a session id gets one per conversation; a client's own passes through", async () => {
  const { mock, gw, client } = await setup(864_000);
  try {
    const conversation = (first: string) => [
      { role: "user" as const, content: first },
      { role: "assistant" as const, content: "ok" },
      { role: "user" as const, content: "and then?" },
    ];
    const sessions: (string | null)[] = [];
    for (const first of ["fix the parser", "fix the parser", "write the docs"]) {
      await client.chat.completions.create({ model: "codex/gpt-5", messages: conversation(first) });
      sessions.push(mock.calls.at(-1)!.headers.get("session_id"));
    }
    assert(
      sessions[0] !== null &&
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(sessions[0]),
    );
    assertEquals(sessions[1], sessions[0], "the same conversation keeps its session");
    assert(sessions[2] !== sessions[0], "another conversation gets another session");
    await client.chat.completions.create(
      { model: "codex/gpt-5", messages: conversation("fix the parser") },
      { headers: { session_id: "client-own-session" } },
    );
    assertEquals(mock.calls.at(-1)!.headers.get("session_id"), "client-own-session");
    // A lone first turn has no conversation identity yet: no session id is made up for it.
    await client.chat.completions.create({
      model: "codex/gpt-5",
      messages: [{ role: "user", content: "hi" }],
    });
    assertEquals(mock.calls.at(-1)!.headers.get("session_id"), null);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
