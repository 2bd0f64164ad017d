/**
 * SsoService end to end against the in-process fake provider and a real SQLite store: the authorization URL,
 * the callback's state (single use, expiry, browser binding), the token exchange's client authentication,
 * userinfo, and that no secret reaches an error message or the database in plaintext.
 */
import type { SsoConfig } from "../../src/config/mod.ts";
import { SsoError, SsoService } from "../../src/sso/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { FakeProvider, makeKey } from "./fake_provider.ts";

const NOW = 1_800_000_000_000;
const ORIGIN = "https://gw.example.com";

async function setup(config: Partial<SsoConfig> = {}) {
  let now = NOW;
  const provider = new FakeProvider([await makeKey("k1")], () => now);
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32).fill(3)));
  let counter = 0;
  const service = new SsoService({
    config: {
      displayName: "Example ID",
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectBaseUrl: null,
      scopes: ["groups"],
      allowedDomains: ["example.com"],
      roleClaim: "groups",
      adminValues: ["gateway-admins"],
      viewerValues: ["gateway-viewers"],
      defaultRole: "none",
      tokenAuthMethod: null,
      ...config,
    },
    fetch: provider.fetch,
    now: () => now,
    // Deterministic but distinct per call, like a real source.
    random: (n) => new Uint8Array(n).fill(++counter),
    logins: store.ssoLogins,
  });
  provider.idTokenClaims = { email: "ada@example.com", name: "Ada", groups: ["gateway-admins"] };
  return {
    provider,
    store,
    service,
    advance(ms: number) {
      now += ms;
    },
    [Symbol.dispose]() {
      store.close();
    },
  };
}

async function failure(promise: Promise<unknown>, code: string): Promise<SsoError> {
  const error = await assertRejects(() => promise, SsoError);
  assertEquals(error.failure, code, error.message);
  return error;
}

Deno.test("start() sends the browser to the provider with code, PKCE S256, state, nonce and the scopes", async () => {
  using t = await setup();
  const redirectUri = t.service.redirectUri(ORIGIN);
  assertEquals(redirectUri, "https://gw.example.com/dashboard/sso/callback");
  const started = await t.service.start({ redirectUri, next: "/dashboard/ui#/usage" });
  const url = new URL(started.location);
  assertEquals(`${url.origin}${url.pathname}`, `${t.provider.issuer}/auth`);
  const q = url.searchParams;
  assertEquals(
    [
      q.get("response_type"),
      q.get("client_id"),
      q.get("redirect_uri"),
      q.get("scope"),
      q.get("code_challenge_method"),
    ],
    ["code", t.provider.clientId, redirectUri, "openid email profile groups", "S256"],
  );
  assert(/^[A-Za-z0-9_-]{43}$/.test(q.get("code_challenge")!), "an S256 challenge");
  assert(q.get("state")!.length >= 32 && q.get("nonce")!.length >= 32);
  assert(!started.location.includes(t.provider.clientSecret));
  assertEquals(started.expiresAt, NOW + 10 * 60_000);
  // What the database holds: hashes and sealed values only.
  const raw = JSON.stringify(t.store.db.prepare("SELECT * FROM sso_pending_logins").all());
  for (const secret of [q.get("state")!, q.get("nonce")!, started.binding]) {
    assert(!raw.includes(secret), raw);
  }
});

Deno.test("redirectUri() uses sso.redirect_base_url when set", async () => {
  using t = await setup({ redirectBaseUrl: "https://public.example.com/gw" });
  assertEquals(
    t.service.redirectUri("http://10.0.0.5:20128"),
    "https://public.example.com/gw/dashboard/sso/callback",
  );
});

Deno.test("finish() trades the code with PKCE and client_secret_basic and admits an administrator", async () => {
  using t = await setup();
  const redirectUri = t.service.redirectUri(ORIGIN);
  const started = await t.service.start({ redirectUri, next: "/dashboard/ui#/keys" });
  const signedIn = await t.service.finish(t.provider.authorize(started.location), started.binding);
  assertEquals(signedIn, {
    identity: {
      issuer: t.provider.issuer,
      subject: "user-123",
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
    },
    next: "/dashboard/ui#/keys",
  });
  const [request] = t.provider.tokenRequests;
  const basic = atob(request.authorization!.replace(/^Basic /, ""));
  assertEquals(basic, `${t.provider.clientId}:${t.provider.clientSecret}`);
  assertEquals(request.form.get("client_secret"), null, "basic auth: the secret is not in the body too");
  assertEquals([request.form.get("grant_type"), request.form.get("redirect_uri")], [
    "authorization_code",
    redirectUri,
  ]);
  const verifier = request.form.get("code_verifier")!;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
  assertEquals(
    challenge,
    new URL(started.location).searchParams.get("code_challenge"),
    "the verifier matches",
  );
});

Deno.test("finish() uses client_secret_post when that is all the provider takes", async () => {
  using t = await setup();
  t.provider.discoveryOverrides = { token_endpoint_auth_methods_supported: ["client_secret_post"] };
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  await t.service.finish(t.provider.authorize(started.location), started.binding);
  const [request] = t.provider.tokenRequests;
  assertEquals(request.authorization, null);
  assertEquals([request.form.get("client_id"), request.form.get("client_secret")], [
    t.provider.clientId,
    t.provider.clientSecret,
  ]);
});

Deno.test("finish() maps a viewer, and reads email and groups from userinfo when the ID token lacks them", async () => {
  using t = await setup();
  t.provider.idTokenClaims = {};
  t.provider.userinfo = { email: "bob@example.com", name: "Bob", groups: ["gateway-viewers"] };
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const { identity } = await t.service.finish(t.provider.authorize(started.location), started.binding);
  assertEquals([identity.email, identity.name, identity.role], ["bob@example.com", "Bob", "viewer"]);
  assertEquals(t.provider.hits.get("/realms/main/userinfo"), 1);
});

Deno.test("finish() refuses userinfo about another subject", async () => {
  using t = await setup();
  t.provider.idTokenClaims = {};
  t.provider.userinfo = { sub: "someone-else", email: "ada@example.com", groups: ["gateway-admins"] };
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  await failure(t.service.finish(t.provider.authorize(started.location), started.binding), "id_token");
});

Deno.test("finish() refuses a replayed state: each sign-in works once, even after a success", async () => {
  using t = await setup();
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const callback = t.provider.authorize(started.location);
  await t.service.finish(callback, started.binding);
  const error = await failure(t.service.finish(callback, started.binding), "state");
  assertEquals(error.status, 400);
  assert(error.message.includes("works once"));
  assertEquals(t.provider.tokenRequests.length, 1, "the replay never reached the provider");
});

Deno.test("finish() refuses a state that failed once (it is consumed), an unknown one, and none", async () => {
  using t = await setup();
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const callback = t.provider.authorize(started.location);
  await failure(t.service.finish(callback, "wrong-binding"), "browser_binding");
  await failure(t.service.finish(callback, started.binding), "state");
  await failure(
    t.service.finish(new URLSearchParams({ code: "c", state: "made-up" }), started.binding),
    "state",
  );
  await failure(t.service.finish(new URLSearchParams({ code: "c" }), started.binding), "state");
});

Deno.test("finish() refuses a callback in a browser that did not start the sign-in (login CSRF)", async () => {
  using t = await setup();
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const error = await failure(
    t.service.finish(t.provider.authorize(started.location), null),
    "browser_binding",
  );
  assert(error.message.includes("another browser"));
});

Deno.test("finish() refuses a sign-in that took longer than ten minutes", async () => {
  using t = await setup();
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  t.advance(10 * 60_000);
  const error = await failure(
    t.service.finish(t.provider.authorize(started.location), started.binding),
    "state",
  );
  assert(error.message.includes("expired"));
});

Deno.test("finish() reports the provider's error answer, and refuses another issuer's (RFC 9207)", async () => {
  using t = await setup();
  let started = await t.service.start({ redirectUri: t.service.redirectUri(ORIGIN), next: "/dashboard/ui" });
  const state = new URL(started.location).searchParams.get("state")!;
  const denied = new URLSearchParams({
    state,
    error: "access_denied",
    error_description: "The user said no",
  });
  const error = await failure(t.service.finish(denied, started.binding), "provider_refused");
  assertEquals(error.message, "The provider did not sign you in: access_denied: The user said no");
  started = await t.service.start({ redirectUri: t.service.redirectUri(ORIGIN), next: "/dashboard/ui" });
  const mixUp = t.provider.authorize(started.location, { iss: "https://evil.example" });
  await failure(t.service.finish(mixUp, started.binding), "provider_refused");
  t.provider.discoveryOverrides = { authorization_response_iss_parameter_supported: true };
  t.advance(2 * 60 * 60_000); // past the discovery TTL, so the new document is read
  started = await t.service.start({ redirectUri: t.service.redirectUri(ORIGIN), next: "/dashboard/ui" });
  await failure(
    t.service.finish(t.provider.authorize(started.location), started.binding),
    "provider_refused",
  );
});

Deno.test("finish() refuses a wrong nonce, a refused domain and an unmapped account, naming no secret", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ nonce: "another-sign-in", email: "ada@example.com", groups: ["gateway-admins"] }, "id_token"],
    [{ email: "mallory@evil-example.com", groups: ["gateway-admins"] }, "domain_refused"],
    [{ email: "ada@example.com", groups: ["staff"] }, "no_role"],
    [{ aud: "another-client", email: "ada@example.com", groups: ["gateway-admins"] }, "id_token"],
  ];
  for (const [claims, code] of cases) {
    using t = await setup();
    t.provider.idTokenClaims = claims;
    const started = await t.service.start({
      redirectUri: t.service.redirectUri(ORIGIN),
      next: "/dashboard/ui",
    });
    const error = await failure(
      t.service.finish(t.provider.authorize(started.location), started.binding),
      code,
    );
    for (
      const secret of [t.provider.clientSecret, t.provider.code, "access-token-never-shown", started.binding]
    ) {
      assert(!error.message.includes(secret), error.message);
    }
  }
});

Deno.test("finish() explains a refused token exchange without echoing the code or secret", async () => {
  using t = await setup();
  t.provider.tokenAnswer = {
    status: 401,
    body: { error: "invalid_client", error_description: "bad secret" },
  };
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const error = await failure(
    t.service.finish(t.provider.authorize(started.location), started.binding),
    "token_exchange",
  );
  assertEquals(error.status, 502);
  assert(
    error.message.includes("invalid_client: bad secret (check sso.client_id and sso.client_secret)"),
    error.message,
  );
  assert(!error.message.includes(t.provider.clientSecret) && !error.message.includes(t.provider.code));
});

Deno.test("a sign-in started by one process can be finished by another on the same database", async () => {
  using t = await setup();
  const started = await t.service.start({
    redirectUri: t.service.redirectUri(ORIGIN),
    next: "/dashboard/ui",
  });
  const other = new SsoService({
    config: {
      displayName: "Example ID",
      issuer: t.provider.issuer,
      clientId: t.provider.clientId,
      clientSecret: t.provider.clientSecret,
      redirectBaseUrl: null,
      scopes: [],
      allowedDomains: ["example.com"],
      roleClaim: "groups",
      adminValues: ["gateway-admins"],
      viewerValues: [],
      defaultRole: "none",
      tokenAuthMethod: null,
    },
    fetch: t.provider.fetch,
    now: () => NOW,
    random: () => {
      throw new Error("finishing needs no randomness");
    },
    logins: t.store.ssoLogins,
  });
  const { identity } = await other.finish(t.provider.authorize(started.location), started.binding);
  assertEquals(identity.role, "admin");
});
