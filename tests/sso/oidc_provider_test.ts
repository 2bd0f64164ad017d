/**
 * Integration: the SSO core against a real OpenID provider, the `oidc-provider` package (a certified
 * implementation) on a loopback port, run in this process. Its development login and consent forms are
 * scripted with fetch and a cookie jar, like a browser: start → provider login → consent → callback →
 * the outcome's role; a refused domain, an account no claim maps, and a replayed callback too.
 */
import type { SsoConfig } from "../../src/config/mod.ts";
import { SsoError, SsoService } from "../../src/sso/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  ES_CLIENT_ID,
  ES_CLIENT_SECRET,
  startProvider,
} from "../helpers/oidc_provider.ts";

const GATEWAY_ORIGIN = "http://127.0.0.1:20999";

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
