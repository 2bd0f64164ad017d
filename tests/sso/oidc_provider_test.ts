/**
 * Integration: the SSO core against a real OpenID provider, the `oidc-provider` package (a certified
 * implementation) on a loopback port, run in this process. Its development login and consent forms are
 * scripted with fetch and a cookie jar, like a browser: start → provider login → consent → callback →
 * the outcome's role; a refused domain, an account no claim maps, and a replayed callback too.
 */
import Provider from "oidc-provider";
import { createServer, type Server } from "node:http";
import type { SsoConfig } from "../../src/config/mod.ts";
import { SsoError, SsoService } from "../../src/sso/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";

const CLIENT_ID = "gateway-dashboard";
const CLIENT_SECRET = "a-client-secret-of-the-test-provider-0123456789";
/** A second client: registered for client_secret_post, with ES256-signed ID tokens. */
const ES_CLIENT_ID = "gateway-es256";
const ES_CLIENT_SECRET = "another-client-secret-of-the-test-provider-9876";
const GATEWAY_ORIGIN = "http://127.0.0.1:20999";

/** The provider's accounts: the login form's user name is the account id. */
const ACCOUNTS: Record<string, { email: string; name: string; groups: string[] }> = {
  ada: { email: "ada@example.com", name: "Ada Admin", groups: ["staff", "gateway-admins"] },
  vic: { email: "vic@Example.com", name: "Vic Viewer", groups: ["gateway-viewers"] },
  mallory: { email: "mallory@evil-example.com", name: "Mallory", groups: ["gateway-admins"] },
  nora: { email: "nora@example.com", name: "Nora Nobody", groups: ["staff"] },
};

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A private signing key for the provider's own key set (RS256 and ES256). */
async function signingKey(
  kid: string,
  params: RsaHashedKeyGenParams | EcKeyGenParams,
): Promise<JsonWebKey & { kid: string }> {
  const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
  return {
    ...await crypto.subtle.exportKey("jwk", pair.privateKey),
    kid,
    key_ops: undefined,
    ext: undefined,
  };
}

/** Starts oidc-provider on loopback with two confidential clients and the accounts above. */
async function startProvider(redirectUri: string): Promise<{ issuer: string; close(): Promise<void> }> {
  const port = freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const keys = [
    await signingKey("rsa-1", {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    }),
    await signingKey("ec-1", { name: "ECDSA", namedCurve: "P-256" }),
  ];
  const client = {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...client,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        ...client,
        client_id: ES_CLIENT_ID,
        client_secret: ES_CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_post",
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    findAccount: (_ctx: unknown, id: string) => {
      const account = ACCOUNTS[id];
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["a-cookie-signing-key-for-the-test-provider"] },
    pkce: { required: () => true },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's cookie jar, enough for the provider's interaction cookies (name, path, value). */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; path: string; value: string }>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((p) => p.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq), value = pair.slice(eq + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      const expired = attributes.some((a) => /^expires=Thu, 01 Jan 1970/i.test(a) || /^max-age=0$/i.test(a));
      if (expired || value === "") this.#cookies.delete(`${name}\n${path}`);
      else this.#cookies.set(`${name}\n${path}`, { name, path, value });
    }
  }

  header(url: URL): string {
    return [...this.#cookies.values()]
      .filter((c) =>
        url.pathname === c.path || url.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`)
      )
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }
}

/**
 * Plays the user at the provider: follows redirects, fills the development login form with `login` and
 * accepts the consent form, until the provider sends the browser to the gateway's callback.
 */
async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  callbackPrefix: string,
): Promise<URL> {
  const jar = new CookieJar();
  let request: { url: URL; init: RequestInit } = { url: new URL(authorizationUrl), init: { method: "GET" } };
  for (let step = 0; step < 20; step++) {
    const headers = new Headers(request.init.headers);
    const cookie = jar.header(request.url);
    if (cookie !== "") headers.set("cookie", cookie);
    const response = await fetch(request.url, { ...request.init, headers, redirect: "manual" });
    jar.take(response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, request.url);
      if (next.href.startsWith(callbackPrefix)) return next;
      request = { url: next, init: { method: "GET" } };
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined || prompt === undefined) {
      throw new Error(`the provider answered HTTP ${response.status} without a form: ${html.slice(0, 300)}`);
    }
    const form = new URLSearchParams({ prompt });
    if (prompt === "login") {
      form.set("login", login);
      form.set("password", "any");
    }
    request = {
      url: new URL(action.replace(/&amp;/g, "&"), request.url),
      init: {
        method: "POST",
        body: form.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
    };
  }
  throw new Error("the provider never sent the browser back");
}

function ssoConfig(issuer: string, overrides: Partial<SsoConfig> = {}): SsoConfig {
  return {
    displayName: "Test ID",
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectBaseUrl: null,
    scopes: ["groups"],
    allowedDomains: ["example.com"],
    roleClaim: "groups",
    adminValues: ["gateway-admins"],
    viewerValues: ["gateway-viewers"],
    defaultRole: "none",
    tokenAuthMethod: null,
    ...overrides,
  };
}

/** The provider's fetch, recording the paths called and the algorithm of each ID token it hands out. */
function recordingFetch() {
  const paths: string[] = [];
  const algs: string[] = [];
  const fetcher = async (input: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const path = new URL(input).pathname;
    paths.push(path);
    if (path === "/token" && response.ok) {
      const body = await response.clone().json() as { id_token?: string };
      const header = JSON.parse(
        atob((body.id_token ?? "").split(".")[0].replace(/-/g, "+").replace(/_/g, "/")),
      );
      algs.push(header.alg);
    }
    return response;
  };
  return { paths, algs, fetcher };
}

Deno.test({
  name:
    "SSO against oidc-provider: administrator and viewer mapping, refused domain, unmapped account, replay, ES256",
  async fn() {
    const store = new Store(
      openDatabase(":memory:"),
      new SecretBox(crypto.getRandomValues(new Uint8Array(32))),
    );
    const redirectUri = `${GATEWAY_ORIGIN}/dashboard/sso/callback`;
    const provider = await startProvider(redirectUri);
    try {
      const recorded = recordingFetch();
      const service = new SsoService({
        config: ssoConfig(provider.issuer),
        fetch: recorded.fetcher,
        now: () => Date.now(),
        random: (n) => crypto.getRandomValues(new Uint8Array(n)),
        logins: store.ssoLogins,
      });
      assertEquals(service.redirectUri(GATEWAY_ORIGIN), redirectUri);

      const signIn = async (login: string) => {
        const started = await service.start({ redirectUri, next: "/dashboard/ui" });
        const callback = await signInAtProvider(started.location, login, redirectUri);
        return { started, callback, result: service.finish(callback.searchParams, started.binding) };
      };

      const admin = await signIn("ada");
      assertEquals(
        admin.callback.searchParams.get("iss"),
        provider.issuer,
        "RFC 9207 iss is sent and checked",
      );
      assertEquals((await admin.result).identity, {
        issuer: provider.issuer,
        subject: "ada",
        email: "ada@example.com",
        name: "Ada Admin",
        role: "admin",
      });
      // oidc-provider keeps scope claims out of code-flow ID tokens (Core §5.4): they come from userinfo.
      assert(recorded.paths.includes("/me"), recorded.paths.join(" "));
      const replay = await assertRejects(
        () => service.finish(admin.callback.searchParams, admin.started.binding),
        SsoError,
      );
      assertEquals(replay.failure, "state");

      const viewer = await (await signIn("vic")).result;
      assertEquals([viewer.identity.email, viewer.identity.role], ["vic@Example.com", "viewer"]);

      const refused = await assertRejects(async () => (await signIn("mallory")).result, SsoError);
      assertEquals([refused.failure, refused.status], ["domain_refused", 403]);
      assert(refused.message.includes("mallory@evil-example.com may not sign in here"), refused.message);

      const unmapped = await assertRejects(async () => (await signIn("nora")).result, SsoError);
      assertEquals(unmapped.failure, "no_role");
      assert(!unmapped.message.includes(CLIENT_SECRET));
      assertEquals(new Set(recorded.algs), new Set(["RS256"]));

      // The second client: client_secret_post (configured; discovery offers basic first) and ES256 ID tokens.
      const es = recordingFetch();
      const esService = new SsoService({
        config: ssoConfig(provider.issuer, {
          clientId: ES_CLIENT_ID,
          clientSecret: ES_CLIENT_SECRET,
          tokenAuthMethod: "client_secret_post",
        }),
        fetch: es.fetcher,
        now: () => Date.now(),
        random: (n) => crypto.getRandomValues(new Uint8Array(n)),
        logins: store.ssoLogins,
      });
      const started = await esService.start({ redirectUri, next: "/dashboard/ui" });
      const callback = await signInAtProvider(started.location, "vic", redirectUri);
      assertEquals((await esService.finish(callback.searchParams, started.binding)).identity.role, "viewer");
      assertEquals(es.algs, ["ES256"]);
    } finally {
      await provider.close();
      store.close();
    }
  },
});
