/** Discovery: the issuer must match exactly, the endpoints must be usable, and answers are kept for a TTL. */
import { DiscoveryCache, discoveryUrl, readDiscovery } from "../../src/sso/discovery.ts";
import { SsoError } from "../../src/sso/sso_error.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../helpers/assert.ts";

const ISSUER = "https://id.example.test/realms/main";
const DOC = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/auth`,
  token_endpoint: `${ISSUER}/token`,
  jwks_uri: `${ISSUER}/certs`,
  userinfo_endpoint: `${ISSUER}/userinfo`,
  response_types_supported: ["code", "id_token"],
  code_challenge_methods_supported: ["plain", "S256"],
  token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_post", "client_secret_basic"],
  authorization_response_iss_parameter_supported: true,
};

function unusable(doc: Record<string, unknown>, issuer = ISSUER): string {
  const error = assertThrows(() => readDiscovery(doc, issuer), SsoError);
  assertEquals([error.failure, error.status], ["provider_unusable", 502]);
  return error.message;
}

Deno.test("discoveryUrl() appends the well-known path without doubling a trailing slash", () => {
  assertEquals(
    discoveryUrl("https://accounts.google.com"),
    "https://accounts.google.com/.well-known/openid-configuration",
  );
  assertEquals(discoveryUrl("https://a.example/t/"), "https://a.example/t/.well-known/openid-configuration");
});

Deno.test("readDiscovery() reads the endpoints and prefers client_secret_basic", () => {
  assertEquals(readDiscovery(DOC, ISSUER), {
    issuer: ISSUER,
    authorizationEndpoint: `${ISSUER}/auth`,
    tokenEndpoint: `${ISSUER}/token`,
    jwksUri: `${ISSUER}/certs`,
    userinfoEndpoint: `${ISSUER}/userinfo`,
    tokenAuthMethod: "client_secret_basic",
    issInAuthorizationResponse: true,
  });
  const post = readDiscovery(
    { ...DOC, token_endpoint_auth_methods_supported: ["client_secret_post"] },
    ISSUER,
  );
  assertEquals(post.tokenAuthMethod, "client_secret_post");
  const bare = readDiscovery({
    ...DOC,
    token_endpoint_auth_methods_supported: undefined,
    userinfo_endpoint: undefined,
  }, ISSUER);
  assertEquals([bare.tokenAuthMethod, bare.userinfoEndpoint], ["client_secret_basic", null]);
});

Deno.test("readDiscovery() refuses an issuer that is not exactly the configured one and says what to set", () => {
  assert(unusable({ ...DOC, issuer: `${ISSUER}/` }).includes(`set sso.issuer to exactly that value`));
  assert(unusable({ ...DOC, issuer: "https://evil.example" }).includes('"https://evil.example"'));
  assert(unusable({ ...DOC, issuer: undefined }).includes("names the issuer undefined"));
});

Deno.test("readDiscovery() refuses a provider without code flow, S256, usable client auth or https endpoints", () => {
  assert(unusable({ ...DOC, response_types_supported: ["id_token"] }).includes("authorization code"));
  assert(unusable({ ...DOC, code_challenge_methods_supported: ["plain"] }).includes("S256"));
  assert(
    unusable({ ...DOC, token_endpoint_auth_methods_supported: ["private_key_jwt"] }).includes(
      "client_secret_basic",
    ),
  );
  assert(
    unusable({ ...DOC, token_endpoint: "http://id.example.test/token" }).includes(
      "token_endpoint is not an https",
    ),
  );
  assert(unusable({ ...DOC, jwks_uri: undefined }).includes("no jwks_uri"));
  assert(unusable({ ...DOC, authorization_endpoint: "javascript:alert(1)" }).includes("not an https"));
  // A loopback test provider over http is fine.
  const local = "http://127.0.0.1:4000";
  const doc = {
    ...DOC,
    issuer: local,
    authorization_endpoint: `${local}/auth`,
    token_endpoint: `${local}/token`,
    jwks_uri: `${local}/jwks`,
  };
  assertEquals(readDiscovery(doc, local).tokenEndpoint, `${local}/token`);
});

Deno.test("DiscoveryCache keeps the metadata for its TTL, shares one fetch, and does not keep a failure", async () => {
  let now = 0, calls = 0, fail = false;
  const fetcher = (url: string) => {
    calls++;
    assertEquals(url, `${ISSUER}/.well-known/openid-configuration`);
    return Promise.resolve(fail ? new Response("down", { status: 503 }) : Response.json(DOC));
  };
  const cache = new DiscoveryCache(ISSUER, fetcher, () => now, 1000);
  await Promise.all([cache.metadata(), cache.metadata()]);
  assertEquals(calls, 1);
  now = 999;
  await cache.metadata();
  assertEquals(calls, 1);
  now = 1000;
  fail = true;
  const error = await assertRejects(() => cache.metadata(), SsoError);
  assert(error.message.includes("answered HTTP 503"), error.message);
  fail = false;
  assertEquals((await cache.metadata()).issuer, ISSUER);
  assertEquals(calls, 3, "the failure was not kept");
});
