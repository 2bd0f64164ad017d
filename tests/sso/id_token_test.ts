/** ID token verification: signatures over the provider's key set (with kid rotation) and every claim rule. */
import { checkIdTokenClaims, type IdTokenExpectation, verifyIdToken } from "../../src/sso/id_token.ts";
import { KeySetCache } from "../../src/sso/jwks.ts";
import { SsoError } from "../../src/sso/sso_error.ts";
import { base64Url } from "../../src/features/signin/base64url.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../helpers/assert.ts";
import { FakeProvider, makeKey, signJwt, type TestKey } from "./fake_provider.ts";

const NOW = 1_800_000_000_000;
const JWKS = "https://id.example.test/realms/main/jwks";

async function setup(keys?: TestKey[]) {
  let now = NOW;
  const provider = new FakeProvider(keys ?? [await makeKey("k1")], () => now);
  provider.nonce = "nonce-1";
  const cache = new KeySetCache(provider.fetch, () => now);
  const expect = (): IdTokenExpectation => ({
    issuer: provider.issuer,
    clientId: provider.clientId,
    nonce: "nonce-1",
    now,
    skewMs: 60_000,
  });
  return {
    provider,
    cache,
    expect,
    advance(ms: number) {
      now += ms;
    },
    token(claims: Record<string, unknown> = {}, key = provider.keys[0], header = {}) {
      return signJwt({ ...provider.standardClaims(), ...claims }, key, header);
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await assertRejects(() => promise, SsoError);
  assertEquals(error.failure, "id_token");
  assertEquals(error.status, 401);
  return error.message;
}

for (const alg of ["RS256", "PS256", "ES256"] as const) {
  Deno.test(`verifyIdToken() accepts a well-formed ${alg} token and returns its claims`, async () => {
    const t = await setup([await makeKey(`key-${alg}`, alg)]);
    const claims = await verifyIdToken(
      await t.token({ email: "ada@example.com" }),
      t.cache,
      JWKS,
      t.expect(),
    );
    assertEquals([claims.sub, claims.email], ["user-123", "ada@example.com"]);
  });
}

Deno.test("verifyIdToken() refuses a token whose payload was changed after signing", async () => {
  const t = await setup();
  const [header, , signature] = (await t.token()).split(".");
  const forged = base64Url(
    new TextEncoder().encode(JSON.stringify({ ...t.provider.standardClaims(), sub: "admin" })),
  );
  assert((await refusal(verifyIdToken(`${header}.${forged}.${signature}`, t.cache, JWKS, t.expect())))
    .includes("signature does not verify"));
});

Deno.test("verifyIdToken() refuses a token signed by a key that is not the provider's, under the provider's kid", async () => {
  const t = await setup();
  const stranger = await makeKey("k1");
  assert((await refusal(verifyIdToken(await t.token({}, stranger), t.cache, JWKS, t.expect())))
    .includes("signature does not verify"));
});

Deno.test("verifyIdToken() refuses alg none, HMAC, an alg that does not fit the key, JWE and garbage", async () => {
  const t = await setup();
  const claims = base64Url(new TextEncoder().encode(JSON.stringify(t.provider.standardClaims())));
  const head = (h: unknown) => base64Url(new TextEncoder().encode(JSON.stringify(h)));
  assert((await refusal(verifyIdToken(`${head({ alg: "none" })}.${claims}.`, t.cache, JWKS, t.expect())))
    .includes('signed with "none"'));
  assert(
    (await refusal(
      verifyIdToken(`${head({ alg: "HS256", kid: "k1" })}.${claims}.c2ln`, t.cache, JWKS, t.expect()),
    ))
      .includes('signed with "HS256"'),
  );
  // The RSA key k1 claimed as ES256: no key of the set fits, so it is an unknown key, never a verified one.
  assert(
    (await refusal(verifyIdToken(await t.token({}, undefined, { alg: "ES256" }), t.cache, JWKS, t.expect())))
      .includes("does not have"),
  );
  assert((await refusal(verifyIdToken("a.b.c.d.e", t.cache, JWKS, t.expect()))).includes("JWE"));
  assert((await refusal(verifyIdToken("not-a-token", t.cache, JWKS, t.expect()))).includes("not a JWS"));
  assert(
    (await refusal(verifyIdToken(await t.token({}, undefined, { crit: ["exp"] }), t.cache, JWKS, t.expect())))
      .includes("critical"),
  );
});

Deno.test("verifyIdToken() fetches the key set again once for an unknown kid (rotation), then verifies", async () => {
  const t = await setup();
  await verifyIdToken(await t.token(), t.cache, JWKS, t.expect());
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 1);
  t.advance(60_000);
  const rotated = await makeKey("k2");
  t.provider.keys = [rotated];
  const claims = await verifyIdToken(await t.token({}, rotated), t.cache, JWKS, t.expect());
  assertEquals(claims.sub, "user-123");
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 2, "one refetch");
  await verifyIdToken(await t.token({}, rotated), t.cache, JWKS, t.expect());
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 2, "the new key is kept");
});

Deno.test("verifyIdToken() refetches only once for a kid the provider does not have, and not again soon after", async () => {
  const t = await setup();
  await verifyIdToken(await t.token(), t.cache, JWKS, t.expect());
  t.advance(60_000);
  const unknown = await makeKey("made-up");
  assert((await refusal(verifyIdToken(await t.token({}, unknown), t.cache, JWKS, t.expect())))
    .includes('kid "made-up"'));
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 2, "fetched again once");
  t.advance(1_000);
  await refusal(verifyIdToken(await t.token({}, unknown), t.cache, JWKS, t.expect()));
  assertEquals(
    t.provider.hits.get("/realms/main/jwks"),
    2,
    "a flood of made-up kids does not hammer the provider",
  );
});

Deno.test("verifyIdToken() keeps the key set for its TTL, then fetches it again", async () => {
  const t = await setup();
  await verifyIdToken(await t.token(), t.cache, JWKS, t.expect());
  t.advance(30 * 60_000);
  await verifyIdToken(await t.token(), t.cache, JWKS, t.expect());
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 1);
  t.advance(31 * 60_000);
  await verifyIdToken(await t.token(), t.cache, JWKS, t.expect());
  assertEquals(t.provider.hits.get("/realms/main/jwks"), 2);
});

const EXPECT: IdTokenExpectation = {
  issuer: "https://id.example.test",
  clientId: "gw",
  nonce: "n-1",
  now: NOW,
  skewMs: 60_000,
};
const GOOD = {
  iss: EXPECT.issuer,
  aud: "gw",
  sub: "u",
  iat: NOW / 1000,
  exp: NOW / 1000 + 300,
  nonce: "n-1",
};

function claimRefusal(claims: Record<string, unknown>): string {
  const error = assertThrows(() => checkIdTokenClaims({ ...GOOD, ...claims }, EXPECT), SsoError);
  assertEquals(error.failure, "id_token");
  return error.message;
}

Deno.test("checkIdTokenClaims() accepts the standard claims, several audiences with our azp, and skew", () => {
  assertEquals(checkIdTokenClaims(GOOD, EXPECT).sub, "u");
  assertEquals(checkIdTokenClaims({ ...GOOD, aud: ["gw", "other"], azp: "gw" }, EXPECT).sub, "u");
  assertEquals(
    checkIdTokenClaims({ ...GOOD, exp: NOW / 1000 - 30 }, EXPECT).sub,
    "u",
    "expired 30 s ago: skew",
  );
  assertEquals(checkIdTokenClaims({ ...GOOD, iat: NOW / 1000 + 30, nbf: NOW / 1000 + 30 }, EXPECT).sub, "u");
});

Deno.test("checkIdTokenClaims() refuses a wrong issuer (exactly: a trailing slash counts)", () => {
  assert(claimRefusal({ iss: "https://evil.example.test" }).includes("issued by"));
  assert(claimRefusal({ iss: `${EXPECT.issuer}/` }).includes("issued by"));
});

Deno.test("checkIdTokenClaims() refuses a token for another client, or several audiences without our azp", () => {
  assert(claimRefusal({ aud: "other" }).includes("another client"));
  assert(claimRefusal({ aud: ["other", "more"] }).includes("another client"));
  assert(claimRefusal({ aud: ["gw", "other"] }).includes("no azp"));
  assert(claimRefusal({ aud: ["gw", "other"], azp: "other" }).includes("authorized party"));
  assert(claimRefusal({ azp: "other" }).includes("authorized party"));
});

Deno.test("checkIdTokenClaims() refuses expired, future and not-yet-valid tokens beyond the skew", () => {
  assert(claimRefusal({ exp: NOW / 1000 - 61 }).includes("expired"));
  assert(claimRefusal({ exp: undefined }).includes("exp is missing"));
  assert(claimRefusal({ iat: NOW / 1000 + 61 }).includes("future"));
  assert(claimRefusal({ iat: "yesterday" }).includes("iat is missing or not a number"));
  assert(claimRefusal({ nbf: NOW / 1000 + 61 }).includes("not valid yet"));
});

Deno.test("checkIdTokenClaims() refuses a nonce that is not this sign-in's, or none, and a missing subject", () => {
  assert(claimRefusal({ nonce: "n-2" }).includes("nonce"));
  assert(claimRefusal({ nonce: undefined }).includes("nonce"));
  assert(claimRefusal({ sub: "" }).includes("subject"));
});
