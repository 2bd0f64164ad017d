/** Fetch Models, Test Connection and the credential status of subscription kinds; no token ever leaks. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startSubscriptionMock } from "../helpers/subscription_mock.ts";

const ADMIN = "static-admin-key-1234567890";

Deno.test("subscription kinds: Fetch Models, Test Connection and status go through the credential path, and no token leaks", async () => {
  const mock = await startSubscriptionMock();
  const codex = mock.issue(30);
  const claude = mock.issue(30);
  const github = mock.issue().access_token;
  const gw = await startTestGateway(`providers:
  - id: codex-1
    prefix: codex
    api_type: responses_oauth
    base_url: ${mock.url}/backend-api/codex
    api_key: '${JSON.stringify({ ...codex, account_id: "acct-9", email: "me@example.com" })}'
    models: [gpt-5, echo]
    oauth: {token_url: "${mock.url}/oauth/token"}
  - id: claude-1
    prefix: claude
    api_type: messages_oauth
    base_url: ${mock.url}
    api_key: '${JSON.stringify(claude)}'
    models: [claude-sonnet-4-5]
    oauth: {token_url: "${mock.url}/v1/oauth/token"}
  - id: copilot-1
    prefix: copilot
    api_type: device_oauth_assistant
    base_url: https://api.githubcopilot.com
    api_key: ${github}
    models: [gpt-4.1]
    oauth: {session_token_url: "${mock.url}/copilot_internal/v2/token"}
api_keys:
  - key: ${ADMIN}
`);
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${gw.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", ...init.headers },
    });
    return { status: response.status, text: await response.text() };
  };
  const post = (path: string, value: unknown) => api(path, { method: "POST", body: JSON.stringify(value) });
  const seen: string[] = [];
  try {
    await post("/dashboard/api/settings", { server_request_logging: true });
    const models = {
      "codex-1": ["gpt-5", "gpt-5-codex"],
      "claude-1": ["claude-opus-4-1", "claude-sonnet-4-5"],
      "copilot-1": ["claude-only", "claude-sonnet-4.5", "gpt-4.1", "gpt-5-codex"],
    };
    for (const [id, expected] of Object.entries(models)) {
      const fetched = await post("/dashboard/api/providers/fetch-models", { provider_id: id });
      seen.push(fetched.text);
      assertEquals(fetched.status, 200, fetched.text);
      assertEquals(JSON.parse(fetched.text).models, expected);
      const probed = await post(`/dashboard/api/providers/${id}/test`, {});
      seen.push(probed.text);
      assertEquals(JSON.parse(probed.text).ok, true, probed.text);
    }
    assertEquals(
      mock.ledger.refreshes,
      2,
      "the expiring Codex and Claude credentials were refreshed, once each",
    );
    const state = await api("/dashboard/api/v2/state/providers");
    seen.push(state.text);
    const providers = JSON.parse(state.text).data.providers as Record<string, unknown>[];
    const codexView = providers.find((p) => p.id === "codex-1")!.credential as Record<string, unknown>;
    assertEquals(codexView.kind, "oauth_blob");
    assertEquals(codexView.account, "me@example.com");
    assertEquals(codexView.refreshable, true);
    assert(typeof codexView.last_refresh_at === "number");
    assertEquals(providers.find((p) => p.id === "copilot-1")!.credential, {
      kind: "bare_token",
      expires_at: null,
      refreshable: false,
      account: null,
      last_refresh_at: null,
      last_error: null,
      last_error_at: null,
    });
    // An upstream that echoes the bearer token in a 400: the client and the request log get it redacted.
    const echoed = await api("/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "codex/echo", messages: [{ role: "user", content: "hi" }] }),
    });
    assertEquals(echoed.status, 400);
    seen.push(echoed.text);
    const logs = await api("/dashboard/api/request-logs/export");
    seen.push(logs.text);
    assert(logs.text.includes("bad request from"), `the failure was logged: ${logs.text.slice(0, 300)}`);
    const plain = await api("/dashboard/api/export");
    assert(plain.status === 200, "the plain export answers without the plaintext confirmation");
    seen.push(plain.text);
    const exported = await api("/dashboard/api/export?include_secrets=true");
    assert(exported.text.includes(github), "the confirmed export holds the credentials");
  } finally {
    await gw.stop();
    await mock.close();
  }
  const tokens = [
    ...mock.ledger.validAccess,
    ...mock.ledger.validRefresh,
    ...mock.ledger.spent,
    codex.access_token,
  ];
  for (const text of seen) {
    for (const token of tokens) assert(!text.includes(token), `a token leaked: ${text.slice(0, 200)}`);
  }
});
