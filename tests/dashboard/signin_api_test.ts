import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { recordingClient, until } from "./dashboard_helpers.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  signinProvidersYaml,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";

const ADMIN = "static-admin-key-signin-1";
const OTHER_ADMIN = "static-admin-key-signin-2";

/** A gateway with a Copilot (device) and a Claude (PKCE) provider signing in at the mock, and an API-key one. */
async function setup(mock: MockOAuth): Promise<TestGateway & AsyncDisposable> {
  const gw = await startTestGateway(`providers:
${signinProvidersYaml(mock)}  - id: codex
    prefix: cx
    api_type: responses_oauth
    base_url: http://127.0.0.1:9
${mock.overridesYaml("    ", "openai")}  - id: plain
    prefix: pl
    api_type: chat_compat
    base_url: http://127.0.0.1:9/v1
    api_key: sk-plain
api_keys:
  - key: ${ADMIN}
    client_key_label: admin
  - key: ${OTHER_ADMIN}
    client_key_label: other
`);
  return Object.assign(gw, { [Symbol.asyncDispose]: () => gw.stop() });
}

Deno.test("dashboard API: a device sign-in shows the code, polls the provider and stores the GitHub token, never answering it", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "ok");
  await using gw = await setup(mock);
  const seen: string[] = [];
  const api = recordingClient(gw, ADMIN, seen);
  const started = await api("POST", "/providers/copilot/connect");
  assertEquals(started.status, 201);
  assertEquals(started.headers.get("cache-control"), "private, no-store");
  assertEquals(started.body.flow, "device");
  assertEquals(started.body.device.user_code, "WDJB-MJHT");
  assertEquals(started.body.device.verification_uri, `${mock.url}/login/device`);
  const path = `/providers/copilot/connect/${started.body.id}`;
  const ended = await until(() => api("GET", path), (r) => r.body.status !== "pending");
  assertEquals(ended.body.status, "succeeded");
  const stored = gw.runtime.control.providers.find((p) => p.id === "copilot")!;
  assertEquals(
    JSON.parse(stored.apiKey).access_token,
    MOCK_ACCESS_TOKEN,
    "saved and reloaded without a restart",
  );
  const providers = await api("GET", "/v2/state/providers");
  assertEquals(providers.status, 200);
  for (const text of seen) {
    assert(!text.includes(MOCK_ACCESS_TOKEN), `no token in ${text.slice(0, 200)}`);
    assert(!text.includes("mock-device-code-secret"), "no device code");
  }
  // Started by the administrator, completed by the gateway's poll: two rows, neither holding the token.
  const audit = gw.management.audit.list({ action: "providers." });
  assertEquals(audit.map((r) => [r.action, r.actorKind, r.target]), [
    ["providers.signin", "system", "providers:copilot"],
    ["providers.connect", "static_key", "providers:copilot"],
  ]);
  assert(!JSON.stringify(audit).includes(MOCK_ACCESS_TOKEN));
});

Deno.test("dashboard API: a PKCE sign-in takes the pasted redirect URL, refusing another attempt's state", async () => {
  await using mock = await startMockOAuth();
  await using gw = await setup(mock);
  const seen: string[] = [];
  const api = recordingClient(gw, ADMIN, seen);
  const started = await api("POST", "/providers/claude/connect");
  assertEquals(started.status, 201);
  assertEquals(started.body.flow, "pkce");
  const authorize = new URL(started.body.pkce.authorize_url);
  assertEquals(authorize.origin + authorize.pathname, `${mock.url}/oauth/authorize`);
  assertEquals(authorize.searchParams.get("code"), "true", "Claude's authorize parameter");
  const visit = await fetch(authorize, { redirect: "manual" });
  await visit.body?.cancel();
  const redirect = visit.headers.get("location")!;
  const path = `/providers/claude/connect/${started.body.id}`;
  const forged = await api("POST", `${path}/redirect`, {
    redirect_url: redirect.replace(/state=[^&]+/, "state=x"),
  });
  assertEquals(forged.status, 400);
  assertMatch(forged.body.error.message, /state does not match/);
  const missing = await api("POST", `${path}/redirect`, {});
  assertEquals(missing.status, 400);
  const done = await api("POST", `${path}/redirect`, { redirect_url: redirect });
  assertEquals(done.status, 200);
  assertEquals(done.body.status, "succeeded");
  const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
  assertMatch(exchange.contentType, /json/, "Claude's token endpoint takes JSON");
  const stored = JSON.parse(gw.runtime.control.providers.find((p) => p.id === "claude")!.apiKey);
  assertEquals(stored.refresh_token, MOCK_REFRESH_TOKEN);
  for (const text of seen) {
    assert(!text.includes(MOCK_ACCESS_TOKEN) && !text.includes(MOCK_REFRESH_TOKEN), text);
  }
});

Deno.test("dashboard API: a sign-in belongs to whoever started it, can be cancelled, and viewers cannot see one", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending");
  await using gw = await setup(mock);
  const api = recordingClient(gw, ADMIN, []);
  const started = await api("POST", "/providers/copilot/connect");
  const path = `/providers/copilot/connect/${started.body.id}`;
  assertEquals((await api("GET", path, undefined, OTHER_ADMIN)).status, 404);
  assertEquals((await api("DELETE", path, undefined, OTHER_ADMIN)).status, 404);
  assertEquals(
    (await api("GET", `/providers/claude/connect/${started.body.id}`)).status,
    404,
    "only under its provider",
  );
  const viewer = (await import("../../src/features/keys/service.ts")).createKey(gw.runtime.control.store, {
    name: "viewer",
    canLogin: true,
    allowedModels: [],
    role: "viewer",
  }, Date.now());
  gw.runtime.control.reload();
  assertEquals((await api("GET", path, undefined, viewer.plaintext)).status, 403);
  assertEquals((await api("POST", "/providers/claude/connect", {}, viewer.plaintext)).status, 403);
  const cancelled = await api("DELETE", path);
  assertEquals(cancelled.body.status, "cancelled");
  assertEquals(gw.runtime.control.providers.find((p) => p.id === "copilot")!.apiKey, "");
});

Deno.test("dashboard API: connecting an API-key provider, an unknown one or with a flow the kind lacks is a clear error", async () => {
  await using mock = await startMockOAuth();
  await using gw = await setup(mock);
  const api = recordingClient(gw, ADMIN, []);
  const plain = await api("POST", "/providers/plain/connect");
  assertEquals(plain.status, 400);
  assertMatch(plain.body.error.message, /only subscription kinds sign in/);
  assertEquals((await api("POST", "/providers/nope/connect")).status, 404);
  const wrong = await api("POST", "/providers/copilot/connect", { flow: "pkce" });
  assertEquals(wrong.status, 400);
  assertMatch(wrong.body.error.message, /signs in with device, not pkce/);
  const bad = await api("POST", "/providers/copilot/connect", { flow: "carrier-pigeon" });
  assertEquals(bad.status, 400);
  assertEquals((await api("GET", "/providers/copilot/connect/nope")).status, 404);
});

Deno.test("dashboard API: a pasted credential blob is validated for subscription kinds, an API-key kind takes any key", async () => {
  await using mock = await startMockOAuth();
  await using gw = await setup(mock);
  const api = recordingClient(gw, ADMIN, []);
  const broken = await api("PUT", "/providers/claude", { api_key: '{"access_token": ' });
  assertEquals(broken.status, 400);
  assertEquals(broken.body.error.field, "api_key");
  assertMatch(broken.body.error.message, /not valid JSON/);
  const tokenless = await api("PUT", "/providers/claude", { api_key: '{"account": "me"}' });
  assertEquals(tokenless.status, 400);
  assertMatch(tokenless.body.error.message, /neither an access_token nor a refresh_token/);
  const created = await api("POST", "/providers", {
    id: "claude-2",
    prefix: "cl",
    api_type: "messages_oauth",
    base_url: "http://127.0.0.1:9",
    api_key: "{oops",
  });
  assertEquals(created.status, 400);
  const good = await api("PUT", "/providers/claude", {
    api_key: JSON.stringify({
      claudeAiOauth: { accessToken: "sk-ant-oat-x", refreshToken: "r", expiresAt: 1 },
    }),
  });
  assertEquals(good.status, 200);
  assertEquals((await api("PUT", "/providers/plain", { api_key: "{not json but an API key}" })).status, 200);
});

Deno.test("dashboard API: signing in again lifts the auth cooldown a dead token caused, but not a rate-limit one", async () => {
  await using mock = await startMockOAuth();
  await using gw = await setup(mock);
  const api = recordingClient(gw, ADMIN, []);
  const routing = gw.runtime.routing;
  const settings = gw.runtime.control.settings;
  const failure = (kind: "auth" | "rate_limit") => ({
    fallback: true,
    cooldownKind: kind,
    retryAfterMs: null,
  });
  const signIn = async (id: string) => {
    const started = await api("POST", `/providers/${id}/connect`, { flow: "pkce" });
    const visit = await fetch(started.body.pkce.authorize_url, { redirect: "manual" });
    await visit.body?.cancel();
    const done = await api("POST", `/providers/${id}/connect/${started.body.id}/redirect`, {
      redirect_url: visit.headers.get("location"),
    });
    assertEquals(done.body.status, "succeeded");
  };
  const cooling = () => routing.active(Date.now()).map((c) => `${c.accountId}:${c.kind}`);
  routing.fail("claude", failure("auth"), "refresh token dead", settings, Date.now());
  assertEquals(cooling(), ["claude:auth"]);
  await signIn("claude");
  assertEquals(cooling(), []);
  routing.fail("claude", failure("rate_limit"), "429", settings, Date.now());
  await signIn("claude");
  assertEquals(cooling(), ["claude:rate_limit"]);
});

Deno.test("dashboard API: Codex offers the browser sign-in first and its own device sign-in second", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "ok");
  await using gw = await setup(mock);
  const seen: string[] = [];
  const api = recordingClient(gw, ADMIN, seen);
  const state = await api("GET", "/v2/state/providers");
  const flows = Object.fromEntries(
    (state.body.data.providers as { id: string; signin_flows: string[] }[]).map((
      p,
    ) => [p.id, p.signin_flows]),
  );
  assertEquals(flows, { copilot: ["device"], claude: ["pkce"], codex: ["pkce", "device"], plain: [] });
  assertEquals((await api("POST", "/providers/codex/connect")).body.flow, "pkce");
  const started = await api("POST", "/providers/codex/connect", { flow: "device" });
  assertEquals(started.body.device.user_code, "CODX-1234");
  const ended = await until(
    () => api("GET", `/providers/codex/connect/${started.body.id}`),
    (r) => r.body.status !== "pending",
  );
  assertEquals(ended.body.status, "succeeded");
  const stored = JSON.parse(gw.runtime.control.providers.find((p) => p.id === "codex")!.apiKey);
  assertEquals(stored.refresh_token, MOCK_REFRESH_TOKEN);
  for (const text of seen) assert(!text.includes(MOCK_REFRESH_TOKEN) && !text.includes(MOCK_ACCESS_TOKEN));
});
