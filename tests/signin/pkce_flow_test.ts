import { GatewayError } from "../../src/model/mod.ts";
import { signinPlan } from "../../src/features/signin/plan.ts";
import { resolveOAuthKind } from "../../src/credentials/mod.ts";
import {
  authorizeUrl,
  createPkcePair,
  exchangeCode,
  type PkceFlowEndpoints,
  readPastedRedirect,
} from "../../src/features/signin/pkce_flow.ts";
import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../helpers/assert.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

function endpoints(mock: MockOAuth, encoding: "form" | "json" = "form"): PkceFlowEndpoints {
  return {
    authorizeUrl: `${mock.url}/oauth/authorize`,
    tokenUrl: `${mock.url}/oauth/token`,
    clientId: "mock-client",
    scope: "openid offline_access",
    redirectUri: `${mock.url}/callback`,
    encoding,
    authorizeParams: { code: "true" },
    stateInExchange: encoding === "json",
  };
}

/** Plays the user: opens the authorize URL and returns the address the browser lands on. */
async function visit(url: string): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return response.headers.get("location") ?? "";
}

Deno.test("authorizeUrl() carries the client, redirect, scope, S256 challenge, state and the kind's extra parameters", async () => {
  await using mock = await startMockOAuth();
  const pair = await createPkcePair(random);
  assertMatch(pair.verifier, /^[A-Za-z0-9_-]{43}$/);
  const url = new URL(authorizeUrl(endpoints(mock), pair));
  assertEquals(url.searchParams.get("response_type"), "code");
  assertEquals(url.searchParams.get("client_id"), "mock-client");
  assertEquals(url.searchParams.get("redirect_uri"), `${mock.url}/callback`);
  assertEquals(url.searchParams.get("code_challenge_method"), "S256");
  assertEquals(url.searchParams.get("code_challenge"), pair.challenge);
  assertEquals(url.searchParams.get("state"), pair.state);
  assertEquals(url.searchParams.get("code"), "true");
  assert(!url.toString().includes(pair.verifier), "the verifier never leaves the server");
});

Deno.test("a pasted redirect URL is exchanged with the verifier the token endpoint checks against the challenge", async () => {
  await using mock = await startMockOAuth();
  const pair = await createPkcePair(random);
  const landed = await visit(authorizeUrl(endpoints(mock), pair));
  const code = readPastedRedirect(landed, pair.state);
  const credential = await exchangeCode(fetch, endpoints(mock), code, pair, 1_700_000_000_000);
  assertEquals(credential, {
    access_token: MOCK_ACCESS_TOKEN,
    refresh_token: MOCK_REFRESH_TOKEN,
    expires_at: 1_700_864_000,
  });
  const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
  assertEquals(exchange.fields.grant_type, "authorization_code");
  assertEquals(exchange.fields.code_verifier, pair.verifier);
  assertEquals(exchange.fields.state, undefined, "a form token endpoint is not sent the state");
});

Deno.test("a JSON token endpoint gets a JSON exchange with the state echoed (Claude's shape)", async () => {
  await using mock = await startMockOAuth();
  const pair = await createPkcePair(random);
  const code = readPastedRedirect(await visit(authorizeUrl(endpoints(mock, "json"), pair)), pair.state);
  await exchangeCode(fetch, endpoints(mock, "json"), code, pair, 0);
  const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
  assertMatch(exchange.contentType, /json/);
  assertEquals(exchange.fields.state, pair.state);
});

Deno.test("exchangeCode() with the wrong verifier fails with the token endpoint's reason", async () => {
  await using mock = await startMockOAuth();
  const pair = await createPkcePair(random);
  const other = await createPkcePair(random);
  const code = readPastedRedirect(await visit(authorizeUrl(endpoints(mock), pair)), pair.state);
  const error = await assertRejects(
    () => exchangeCode(fetch, endpoints(mock), code, { ...pair, verifier: other.verifier }, 0),
    GatewayError,
  );
  assertEquals(error.status, 502);
  assertMatch(error.message, /invalid_grant: code_verifier does not match/);
});

Deno.test("readPastedRedirect() refuses a redirect whose state belongs to another attempt", () => {
  const error = assertThrows(
    () => readPastedRedirect("http://localhost:1455/auth/callback?code=abc&state=other", "mine"),
    GatewayError,
  );
  assertEquals(error.status, 400);
  assertMatch(error.message, /state does not match/);
  assertThrows(() => readPastedRedirect("abc#other", "mine"), GatewayError, "state does not match");
});

Deno.test("readPastedRedirect() accepts a redirect URL, code#state, a fragment answer and a bare code", () => {
  assertEquals(readPastedRedirect("  http://localhost:1455/auth/callback?code=c1&state=s  ", "s"), "c1");
  assertEquals(readPastedRedirect("c2#s", "s"), "c2");
  assertEquals(readPastedRedirect("https://example.test/cb#code=c3&state=s", "s"), "c3");
  assertEquals(readPastedRedirect("c4", "s"), "c4");
});

Deno.test("readPastedRedirect() turns a provider's error redirect, a URL without code and blanks into clear 400s", () => {
  assertThrows(
    () =>
      readPastedRedirect(
        "http://localhost/cb?error=access_denied&error_description=User+said+no&state=s",
        "s",
      ),
    GatewayError,
    "refused the sign-in: access_denied (User said no)",
  );
  assertThrows(
    () => readPastedRedirect("http://localhost/cb?state=s", "s"),
    GatewayError,
    "has no code parameter",
  );
  assertThrows(() => readPastedRedirect("   ", "s"), GatewayError, "is required");
  assertThrows(() => readPastedRedirect("two words", "s"), GatewayError, "neither a URL nor a code");
});

Deno.test("signinPlan() for Google Cloud Code needs the configured client and sends its secret in the code exchange", async () => {
  assertEquals(
    typeof signinPlan(resolveOAuthKind("cli_oauth", undefined)!),
    "string",
    "without a configured client there is no plan, only the reason",
  );
  const plan = signinPlan(resolveOAuthKind("cli_oauth", { clientId: "app-id", clientSecret: "app-secret" })!);
  assert(typeof plan !== "string" && plan.flow === "pkce", "a PKCE plan");
  const forms: URLSearchParams[] = [];
  const fetcher = (_url: string, init: RequestInit) => {
    forms.push(new URLSearchParams(String(init.body)));
    return Promise.resolve(
      Response.json({ access_token: "ya29.x", refresh_token: "1//r", expires_in: 3599 }),
    );
  };
  const pair = { verifier: "v".repeat(43), challenge: "c", state: "s" };
  await exchangeCode(fetcher, plan.endpoints, "code-1", pair, 0);
  assertEquals(forms[0].get("client_secret"), "app-secret");
  assertEquals(forms[0].get("client_id"), "app-id");
});
