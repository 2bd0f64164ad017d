import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startSubscriptionMock, type SubscriptionMock } from "../helpers/subscription_mock.ts";
import { waitFor } from "../helpers/wait.ts";

function claudeYaml(mock: SubscriptionMock, blobs: string[]): string {
  return "providers:\n" + blobs.map((blob, i) =>
    `  - id: claude-${i + 1}
    prefix: claude
    api_type: messages_oauth
    base_url: ${mock.url}
    api_key: '${blob}'
    models: [claude-sonnet-4-5, rejected]
    oauth: {token_url: "${mock.url}/v1/oauth/token"}
`
  ).join("");
}

function copilotYaml(mock: SubscriptionMock, githubToken: string): string {
  // base_url stays the kind's default: the session exchange names the API host (the mock's second host).
  return `providers:
  - id: copilot-1
    prefix: copilot
    api_type: device_oauth_assistant
    base_url: https://api.githubcopilot.com
    api_key: ${githubToken}
    models: [gpt-4.1, gpt-5-codex, claude-only]
    oauth:
      session_token_url: "${mock.url}/copilot_internal/v2/token"
      usage_url: "${mock.url}/copilot_internal/user"
`;
}

for (const stream of [false, true]) {
  Deno.test(`messages_oauth: the anthropic SDK through a Claude subscription, refreshed with rotation (stream: ${stream})`, async () => {
    const mock = await startSubscriptionMock();
    const gw = await startTestGateway(claudeYaml(mock, [JSON.stringify(mock.issue(30))]));
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: "anything", maxRetries: 0 });
      const params = {
        model: "claude/claude-sonnet-4-5",
        max_tokens: 64,
        messages: [{ role: "user" as const, content: "hi" }],
      };
      let text = "";
      if (stream) {
        const events = await client.messages.create({ ...params, stream: true });
        for await (const e of events) {
          if (e.type === "content_block_delta" && e.delta.type === "text_delta") text += e.delta.text;
        }
      } else {
        const answer = await client.messages.create(params);
        text = answer.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      }
      assertEquals(text, "claude says hi (claude-sonnet-4-5)");
      // The unified rate-limit headers reached quota-aware routing.
      const headroom = gw.runtime.routing.quota.headroom("claude-1", Date.now());
      assert(headroom !== undefined && JSON.stringify(headroom).includes("5h"), JSON.stringify(headroom));
      assertEquals(mock.ledger.refreshes, 1);
      const call = mock.calls.find((c) => c.path === "/v1/messages")!;
      assert(call.headers.get("authorization")?.startsWith("Bearer at-"));
      assertEquals(call.headers.get("x-api-key"), null);
      assert(call.headers.get("anthropic-beta")!.includes("oauth-2025-04-20"));
      assert(call.headers.get("anthropic-version"), "the API version is forwarded");
      // JSON body with client_id, never a form, for the Claude token endpoint.
      assertEquals(mock.ledger.bodies[0].grant_type, "refresh_token");
      assertEquals(mock.ledger.bodies[0].client_id, "9d1c250a-e61b-44d9-88ed-5944d1962f5e");
    } finally {
      await gw.stop();
      await mock.close();
    }
  });
}

Deno.test("messages_oauth: a long-lived token is used as is, and a rejected 5-hour window cools the account until its reset", async () => {
  const mock = await startSubscriptionMock();
  const longLived = mock.issue().access_token;
  const gw = await startTestGateway(claudeYaml(mock, [longLived]));
  try {
    const client = new Anthropic({ baseURL: gw.url, apiKey: "anything", maxRetries: 0 });
    const ok = await client.messages.create({
      model: "claude/claude-sonnet-4-5",
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    });
    assertEquals(ok.content[0].type, "text");
    const failed = await client.messages.create({
      model: "claude/rejected",
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    })
      .then(() => null, (e) => e);
    assertEquals(failed?.status, 503);
    const cooling = gw.runtime.routing.active(Date.now());
    assertEquals(cooling.length, 1);
    assert(cooling[0].remainingSeconds > 4 * 3600, `cooled ${cooling[0].remainingSeconds}s`);
    assertEquals(mock.ledger.refreshes, 0);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("messages_oauth: a dead refresh token is an auth failure that says to sign in again, and falls back", async () => {
  const mock = await startSubscriptionMock();
  const dead = JSON.stringify({ access_token: "expired", refresh_token: "never-issued", expires_at: 1 });
  const good = JSON.stringify(mock.issue());
  const gw = await startTestGateway(claudeYaml(mock, [dead, good]));
  try {
    const client = new Anthropic({ baseURL: gw.url, apiKey: "anything", maxRetries: 0 });
    const answer = await client.messages.create({
      model: "claude/claude-sonnet-4-5",
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    });
    assertEquals(answer.content[0].type, "text");
    const cooling = gw.runtime.routing.active(Date.now());
    assertEquals(cooling.map((c) => [c.accountId, c.kind]), [["claude-1", "auth"]]);
    const state = gw.runtime.control.store.credentials.states().get("provider:claude-1");
    assert(state?.lastError?.includes("sign in again"), state?.lastError ?? "no error recorded");
    assert(!state?.lastError?.includes("never-issued"));
  } finally {
    await gw.stop();
    await mock.close();
  }
});

for (const stream of [false, true]) {
  Deno.test(`device_oauth_assistant: session token from one host, chat on the host it names, per-model endpoints (stream: ${stream})`, async () => {
    const mock = await startSubscriptionMock();
    const github = mock.issue().access_token;
    const gw = await startTestGateway(copilotYaml(mock, github));
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
      for (const model of ["gpt-4.1", "gpt-5-codex", "claude-only"]) {
        const params = { model: `copilot/${model}`, messages: [{ role: "user" as const, content: "hi" }] };
        let text = "";
        if (stream) {
          const chunks = await client.chat.completions.create({ ...params, stream: true });
          for await (const c of chunks) text += c.choices[0]?.delta?.content ?? "";
        } else {
          text = (await client.chat.completions.create(params)).choices[0].message.content ?? "";
        }
        const format = model === "gpt-4.1"
          ? "chat_completions"
          : model === "gpt-5-codex"
          ? "responses"
          : "messages";
        assertEquals(text, `copilot ${format} says hi (${model})`);
      }
      assertEquals(mock.sessions, 1, "one session token serves every call until it nears expiry");
      const chat = mock.calls.find((c) => c.path === "/chat/completions")!;
      assertEquals(chat.headers.get("x-initiator"), "user");
      assertEquals(chat.headers.get("openai-intent"), "conversation-panel");
      assert(chat.headers.get("x-request-id"));
      const messages = mock.calls.find((c) => c.path === "/v1/messages")!;
      assertEquals(messages.headers.get("openai-intent"), "messages-proxy");
    } finally {
      await gw.stop();
      await mock.close();
    }
  });
}

Deno.test("device_oauth_assistant: without a model list, a 400 'not accessible via /chat/completions' moves the model to /responses; quota reaches routing", async () => {
  const mock = await startSubscriptionMock({ noModelList: true });
  const github = mock.issue().access_token;
  const gw = await startTestGateway(copilotYaml(mock, github));
  try {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
    for (let i = 0; i < 2; i++) {
      const answer = await client.chat.completions.create({
        model: "copilot/gpt-5-codex",
        messages: [{ role: "user", content: "hi" }],
      });
      assertEquals(answer.choices[0].message.content, "copilot responses says hi (gpt-5-codex)");
    }
    const paths = mock.calls.filter((c) => c.path !== "/models").map((c) => c.path);
    assertEquals(
      paths,
      ["/chat/completions", "/responses", "/responses"],
      "learnt once, then called there directly",
    );
    // The quota read runs beside the request; wait for it and look at what routing knows.
    await waitFor(() => gw.runtime.routing.quota.headroom("copilot-1", Date.now()) !== undefined, {
      what: "Copilot's quota to reach the routing quota tracker",
    });
    const headroom = gw.runtime.routing.quota.headroom("copilot-1", Date.now());
    assert(JSON.stringify(headroom).includes("copilot_premium_interactions"), JSON.stringify(headroom));
  } finally {
    await gw.stop();
    await mock.close();
  }
});

const ADMIN = "static-admin-key-1234567890";

/** Copilot YAML with a static key for the dashboard API. */
function copilotDashboardYaml(mock: SubscriptionMock, githubToken: string): string {
  return copilotYaml(mock, githubToken) + `api_keys:\n  - key: ${ADMIN}\n    client_key_label: admin\n`;
}

async function routingAccount(gw: TestGateway, id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${gw.url}/dashboard/api/v2/state/routing`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  const data = (await response.json()).data as { prefixes: { accounts: Record<string, unknown>[] }[] };
  return data.prefixes.flatMap((p) => p.accounts).find((a) => a.id === id)!;
}

function ask(gw: TestGateway, model: string): Promise<Response> {
  return fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ model: `copilot/${model}`, messages: [{ role: "user", content: "hi" }] }),
  });
}

Deno.test("device_oauth_assistant: 20 concurrent requests share one session exchange, and one more when it nears expiry", async () => {
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const mock = await startSubscriptionMock({ nowMs: now });
  const github = mock.issue().access_token;
  const gw = await startTestGateway(copilotDashboardYaml(mock, github), { now });
  try {
    const round = async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => ask(gw, "gpt-4.1")));
      for (const answer of answers) assertEquals(answer.status, 200, await answer.text());
    };
    await round();
    assertEquals(mock.sessions, 1, "one exchange for 20 concurrent first requests");
    // The mock's session lives 1500 s; the gateway renews 5 minutes before: 1300 s later it is due.
    offsetMs = 1_300_000;
    await round();
    assertEquals(mock.sessions, 2, "exactly one renewal for 20 concurrent requests on an expiring session");
    await round();
    assertEquals(mock.sessions, 2, "the renewed session serves the next requests");
    const sessions = new Set(
      mock.calls.filter((c) => c.path === "/chat/completions").map((c) => c.headers.get("authorization")),
    );
    assertEquals(sessions.size, 2, "every chat call carried one of the two session tokens");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("device_oauth_assistant: a 429 cools the account until Retry-After, without a new session or refresh", async () => {
  const mock = await startSubscriptionMock();
  const github = mock.issue().access_token;
  const gw = await startTestGateway(copilotDashboardYaml(mock, github));
  try {
    const limited = await ask(gw, "limited");
    const text = await limited.text();
    // The only account is exhausted: the spec's 503 naming the upstream's 429.
    assertEquals(limited.status, 503, text);
    assert(text.includes("HTTP 429"), text);
    const account = await routingAccount(gw, "copilot-1");
    assertEquals(account.ready, false, JSON.stringify(account));
    const cooldown = account.cooldown as { remaining_s: number; kind: string };
    assert(cooldown.remaining_s > 100 && cooldown.remaining_s <= 120, JSON.stringify(cooldown));
    const chatCalls = mock.calls.filter((c) => c.path === "/chat/completions").length;
    // While it cools, the account is not called at all.
    const next = await ask(gw, "gpt-4.1");
    assertEquals(next.status, 503, await next.text());
    assertEquals(mock.calls.filter((c) => c.path === "/chat/completions").length, chatCalls);
    assertEquals([mock.sessions, mock.ledger.refreshes], [1, 0], "a 429 is never answered by a refresh");
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("device_oauth_assistant: Copilot's quota reaches the Routing screen's state", async () => {
  const mock = await startSubscriptionMock();
  const github = mock.issue().access_token;
  const gw = await startTestGateway(copilotDashboardYaml(mock, github));
  try {
    const answer = await ask(gw, "gpt-4.1");
    assertEquals(answer.status, 200, await answer.text());
    let windows: Record<string, unknown>[] = [];
    await waitFor(async () => {
      const quota = (await routingAccount(gw, "copilot-1")).quota as
        | { windows?: Record<string, unknown>[] }
        | null;
      windows = quota?.windows ?? [];
      return windows.length > 0;
    }, { what: "Copilot's quota windows in the routing state", intervalMs: 20 });
    assertEquals(windows.map((w) => [w.id, w.source, w.limit, w.remaining, w.headroom]), [
      ["copilot_premium_interactions", "upstream", 300, 120, 0.4],
    ]);
    assertEquals(windows[0].reset_at, Date.parse("2026-12-01"));
  } finally {
    await gw.stop();
    await mock.close();
  }
});
