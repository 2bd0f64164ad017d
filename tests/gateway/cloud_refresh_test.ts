/**
 * Refresh of the Cloud Code and cloud-assistant credentials behind a real gateway: Google's form grant with
 * the configured installed-app secret, Kiro's OIDC (its own registered client, camelCase) and social
 * refresh; the new token is used at once and the profile ARN kept.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { kiroEvent } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";

const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }] };
const EXPIRED = 1_000_000_000;

function yaml(apiType: string, base: string, blob: unknown, oauth: string): string {
  return "providers:\n" +
    `  - id: acct\n    prefix: p\n    api_type: ${apiType}\n    base_url: "${base}"\n` +
    `    api_key: '${JSON.stringify(blob)}'\n    models: [m1]\n    oauth: ${oauth}\n`;
}

/** A Cloud Code credential whose access token is past its expiry. */
const EXPIRED_GOOGLE = {
  access_token: "goog-old",
  refresh_token: "goog-refresh",
  expires_at: EXPIRED,
  extra: { project_id: "p1" },
};

/**
 * Google's token endpoint: it takes a form, which the JSON mock cannot record, so a server of its own that
 * records each form and hands out `goog-new`.
 */
function startGoogleTokens() {
  const forms: URLSearchParams[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    forms.push(new URLSearchParams(await request.text()));
    return Response.json({ access_token: "goog-new", expires_in: 3599, token_type: "Bearer" });
  });
  return { forms, url: `http://127.0.0.1:${server.addr.port}`, shutdown: () => server.shutdown() };
}

/** The `cli_oauth` account's YAML: the expired credential on `base`, refreshing at `tokenUrl` as app `app-id`. */
function expiredGoogleYaml(base: string, tokenUrl: string): string {
  return yaml(
    "cli_oauth",
    base,
    EXPIRED_GOOGLE,
    `{token_url: "${tokenUrl}/token", client_id: app-id, client_secret: app-secret}`,
  );
}

Deno.test("cloud assistant: an expired OIDC credential refreshes at the token endpoint (camelCase) before the call", async () => {
  const upstream = await startMockUpstream();
  const oidc = await startMockUpstream();
  oidc.script({
    json: {
      accessToken: "kiro-new",
      refreshToken: "kiro-refresh-2",
      expiresIn: 3600,
      profileArn: "arn:aws:codewhisperer:us-east-1:1:profile/NEW",
    },
  });
  upstream.script({
    handler: () => splitEventStream([kiroEvent("assistantResponseEvent", { content: "refreshed" })], 9),
  });
  const blob = {
    accessToken: "kiro-old",
    refreshToken: "kiro-refresh-1",
    expiresAt: EXPIRED,
    clientId: "cid",
    clientSecret: "csecret",
    region: "us-east-1",
    authMethod: "IdC",
  };
  const gw = await startTestGateway(
    yaml("cloud_assistant_oauth", upstream.url, blob, `{token_url: "${oidc.url}/token"}`),
  );
  try {
    const response = await post(`${gw.url}/v1/chat/completions`, ask);
    const text = await response.text();
    assertEquals(response.status, 200, text);
    assertStringIncludes(text, "refreshed");
    assertEquals(oidc.requests[0].body, {
      clientId: "cid",
      clientSecret: "csecret",
      refreshToken: "kiro-refresh-1",
      grantType: "refresh_token",
    });
    assertEquals(upstream.requests[0].headers.get("authorization"), "Bearer kiro-new");
    assertEquals(upstream.requests[0].body.profileArn, "arn:aws:codewhisperer:us-east-1:1:profile/NEW");
  } finally {
    await gw.stop();
    await upstream.close();
    await oidc.close();
  }
});

Deno.test("cloud assistant: a social credential refreshes with only its refresh token", async () => {
  const upstream = await startMockUpstream();
  const social = await startMockUpstream();
  social.script({ json: { accessToken: "social-new", expiresIn: 3600 } });
  upstream.script({
    handler: () => splitEventStream([kiroEvent("assistantResponseEvent", { content: "ok" })]),
  });
  const blob = { accessToken: "social-old", refreshToken: "social-refresh", expiresAt: EXPIRED };
  const gw = await startTestGateway(
    yaml("cloud_assistant_oauth", upstream.url, blob, `{token_url: "${social.url}/refreshToken"}`),
  );
  try {
    const response = await post(`${gw.url}/v1/chat/completions`, ask);
    assertEquals(response.status, 200, await response.text());
    assertEquals(social.requests[0].body, { refreshToken: "social-refresh" });
    assertEquals(upstream.requests[0].headers.get("authorization"), "Bearer social-new");
  } finally {
    await gw.stop();
    await upstream.close();
    await social.close();
  }
});

Deno.test("cli_oauth: Google refresh sends the configured installed-app secret; without one the account falls back with a clear reason", async () => {
  const upstream = await startMockUpstream();
  const google = startGoogleTokens();
  upstream.script({
    json: {
      response: {
        candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }],
      },
    },
  });
  const gw = await startTestGateway(expiredGoogleYaml(upstream.url, google.url));
  try {
    const response = await post(`${gw.url}/v1/chat/completions`, ask);
    assertEquals(response.status, 200, await response.text());
    assertEquals(Object.fromEntries(google.forms[0]), {
      grant_type: "refresh_token",
      refresh_token: "goog-refresh",
      client_id: "app-id",
      client_secret: "app-secret",
    });
    assertEquals(upstream.requests[0].headers.get("authorization"), "Bearer goog-new");
    assertEquals(upstream.requests[0].body.project, "p1");
  } finally {
    await gw.stop();
    await upstream.close();
    await google.shutdown();
  }
  const noSecret = await startTestGateway(
    yaml("cli_oauth", "http://127.0.0.1:9", EXPIRED_GOOGLE, `{token_url: "http://127.0.0.1:9/token"}`),
  );
  try {
    const response = await post(`${noSecret.url}/v1/chat/completions`, ask);
    const text = await response.text();
    assertEquals(response.status, 503);
    assertStringIncludes(text, "client_secret");
    assert(!text.includes("goog-refresh"), "the refresh token never reaches a response");
  } finally {
    await noSecret.stop();
  }
});

Deno.test("cli_oauth: a credential without a project is onboarded once (loadCodeAssist, onboardUser until done) and the project stored", async () => {
  const upstream = await startMockUpstream();
  const answer = {
    response: { candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }] },
  };
  upstream.script({
    handler: (request) => {
      if (request.path === "/v1internal:loadCodeAssist") {
        return Response.json({ allowedTiers: [{ id: "free-tier", isDefault: true }, { id: "legacy-tier" }] });
      }
      if (request.path === "/v1internal:onboardUser") {
        const polls = upstream.requests.filter((r) => r.path === "/v1internal:onboardUser").length;
        return Response.json(
          polls < 2 ? { name: "operations/onboard-1", done: false } : {
            name: "operations/onboard-1",
            done: true,
            response: { cloudaicompanionProject: { id: "proj-new" } },
          },
        );
      }
      return Response.json(answer);
    },
  });
  const blob = { access_token: "goog-access" };
  const gw = await startTestGateway(yaml("cli_oauth", upstream.url, blob, "{}"));
  try {
    for (let i = 0; i < 2; i++) {
      const response = await post(`${gw.url}/v1/chat/completions`, ask);
      assertEquals(response.status, 200, await response.text());
    }
    const paths = upstream.requests.map((r) => r.path);
    assertEquals(paths, [
      "/v1internal:loadCodeAssist",
      "/v1internal:onboardUser",
      "/v1internal:onboardUser",
      "/v1internal:generateContent",
      "/v1internal:generateContent",
    ]);
    assertEquals(upstream.requests[1].body.tierId, "free-tier");
    assertEquals(upstream.requests.at(-1)!.body.project, "proj-new");
    const stored = gw.runtime.control.providers.find((p) => p.id === "acct")!.apiKey;
    assertEquals(JSON.parse(stored).extra.project_id, "proj-new");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("cli_oauth: loadCodeAssist naming the project needs no onboarding", async () => {
  const upstream = await startMockUpstream();
  upstream.script({
    handler: (request) =>
      request.path === "/v1internal:loadCodeAssist"
        ? Response.json({ cloudaicompanionProject: "proj-known" })
        : Response.json({
          response: {
            candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }],
          },
        }),
  });
  const gw = await startTestGateway(yaml("cli_oauth_alt", upstream.url, { access_token: "t" }, "{}"));
  try {
    const response = await post(`${gw.url}/v1/chat/completions`, ask);
    assertEquals(response.status, 200, await response.text());
    assertEquals(upstream.requests.map((r) => r.path), [
      "/v1internal:loadCodeAssist",
      "/v1internal:generateContent",
    ]);
    assertEquals(upstream.requests[1].body.project, "proj-known");
    assertEquals(upstream.requests[1].body.requestType, "agent");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("cli_oauth: token counting asks v1internal:countTokens without a project", async () => {
  const upstream = await startMockUpstream();
  upstream.script({ json: { totalTokens: 42 } });
  const blob = { access_token: "goog-access", extra: { project_id: "p1" } };
  const gw = await startTestGateway(yaml("cli_oauth", upstream.url, blob, "{}"));
  try {
    const response = await post(`${gw.url}/v1/messages/count_tokens`, {
      model: "p/m1",
      messages: [{ role: "user", content: "count me" }],
    }, { "anthropic-version": "2023-06-01" });
    assertEquals(await response.json(), { input_tokens: 42 });
    const sent = upstream.requests[0];
    assertEquals(sent.path, "/v1internal:countTokens");
    assertEquals(sent.body.project, undefined);
    assertEquals(sent.body.model, "m1");
    assertEquals(sent.headers.get("authorization"), "Bearer goog-access");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("cli_oauth: token counting refreshes a due credential first (never counts with the stale token)", async () => {
  const upstream = await startMockUpstream();
  upstream.script({
    handler: (request) =>
      request.headers.get("authorization") === "Bearer goog-new"
        ? Response.json({ totalTokens: 7 })
        : Response.json({ error: { code: 401, message: "stale token" } }, { status: 401 }),
  });
  const google = startGoogleTokens();
  const gw = await startTestGateway(expiredGoogleYaml(upstream.url, google.url));
  try {
    const response = await post(`${gw.url}/v1/messages/count_tokens`, {
      model: "p/m1",
      messages: [{ role: "user", content: "count me" }],
    }, { "anthropic-version": "2023-06-01" });
    assertEquals(await response.json(), { input_tokens: 7 });
    assertEquals(google.forms.length, 1);
    assertEquals(upstream.requests.map((r) => r.headers.get("authorization")), ["Bearer goog-new"]);
  } finally {
    await gw.stop();
    await upstream.close();
    await google.shutdown();
  }
});
