import { GatewayError } from "../../src/model/mod.ts";
import {
  type DeviceFlowEndpoints,
  requestDeviceCode,
  runDeviceFlow,
} from "../../src/features/signin/device_flow.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  OPENAI_DEVICE_REDIRECT,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";
import { runOnFakeClock } from "./fake_clock_run.ts";

function endpoints(mock: MockOAuth, clientId = "mock-client"): DeviceFlowEndpoints {
  return {
    protocol: "rfc8628",
    deviceUrl: `${mock.url}/login/device/code`,
    tokenUrl: `${mock.url}/login/oauth/access_token`,
    clientId,
    scope: "read:user",
    encoding: "form",
  };
}

/** Runs a device sign-in at the mock on a fake clock (see `runOnFakeClock`). */
function run(mock: MockOAuth, options: { abortAfterPolls?: number; expiresInMs?: number } = {}) {
  return runOnFakeClock(endpoints(mock), options);
}

Deno.test("requestDeviceCode() returns the user code, link and the server's interval, keeping the device code server-side", async () => {
  await using mock = await startMockOAuth();
  mock.interval = 7;
  const grant = await requestDeviceCode(fetch, endpoints(mock), 0);
  assertEquals(grant.userCode, "WDJB-MJHT");
  assertEquals(grant.verificationUri, `${mock.url}/login/device`);
  assertEquals(grant.intervalS, 7);
  assertEquals(grant.expiresAt, 900_000);
  assertEquals(mock.requests[0].fields, { client_id: "mock-client", scope: "read:user" });
  assertMatch(mock.requests[0].contentType, /x-www-form-urlencoded/);
});

Deno.test("requestDeviceCode() refused by the server is a 502 naming the endpoint and the OAuth error", async () => {
  await using mock = await startMockOAuth();
  const error = await assertRejects(
    () => requestDeviceCode(fetch, endpoints(mock, "wrong-client"), 0),
    GatewayError,
  );
  assertEquals(error.status, 502);
  assertMatch(error.message, /\/login\/device\/code answered invalid_client/);
});

Deno.test("runDeviceFlow() polls at the server's interval, five seconds longer after slow_down, until success", async () => {
  await using mock = await startMockOAuth();
  mock.interval = 2;
  mock.deviceSteps("authorization_pending", "slow_down", "authorization_pending", "ok");
  const { result, slept } = await run(mock);
  assertEquals(result.kind, "done");
  assert(result.kind === "done");
  assertEquals(result.credential.access_token, MOCK_ACCESS_TOKEN);
  // pending at 2 s, slow_down at 2 s → 7 s from then on.
  assertEquals(slept, [2000, 2000, 7000, 7000]);
  const polls = mock.requests.filter((r) => r.path === "/login/oauth/access_token");
  assertEquals(polls.length, 4);
  assertEquals(polls[0].fields.grant_type, "urn:ietf:params:oauth:grant-type:device_code");
});

Deno.test("runDeviceFlow() ends as denied when the user refuses on the provider's page", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "access_denied");
  const { result } = await run(mock);
  assertEquals(result.kind, "denied");
});

Deno.test("runDeviceFlow() ends as expired on expired_token from the server", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("expired_token");
  const { result } = await run(mock);
  assertEquals(result.kind, "expired");
});

Deno.test("runDeviceFlow() stops polling once the code's lifetime has passed, without asking the server again", async () => {
  await using mock = await startMockOAuth();
  mock.interval = 5;
  mock.deviceSteps("authorization_pending");
  const { result, slept } = await run(mock, { expiresInMs: 12_000 });
  assertEquals(result.kind, "expired");
  assertEquals(slept, [5000, 5000, 5000]);
  assertEquals(mock.requests.filter((r) => r.path === "/login/oauth/access_token").length, 2);
});

Deno.test("runDeviceFlow() cancelled by its signal ends as cancelled and polls no more", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending");
  const { result } = await run(mock, { abortAfterPolls: 2 });
  assertEquals(result.kind, "cancelled");
  assertEquals(mock.requests.filter((r) => r.path === "/login/oauth/access_token").length, 2);
});

Deno.test("OpenAI's device sign-in: 403 polls are pending, then the returned code and verifier are exchanged for tokens", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "authorization_pending", "ok");
  const openai: DeviceFlowEndpoints = {
    protocol: "openai_deviceauth",
    deviceUrl: `${mock.url}/api/accounts/deviceauth/usercode`,
    tokenUrl: `${mock.url}/api/accounts/deviceauth/token`,
    clientId: "mock-client",
    scope: "",
    encoding: "form",
    verificationUri: `${mock.url}/codex/device`,
    exchangeUrl: `${mock.url}/oauth/token`,
    exchangeEncoding: "form",
    redirectUri: OPENAI_DEVICE_REDIRECT,
  };
  let clock = 0;
  const grant = await requestDeviceCode(fetch, openai, clock);
  assertEquals(grant.userCode, "CODX-1234");
  assertEquals(grant.verificationUri, `${mock.url}/codex/device`);
  const result = await runDeviceFlow(
    {
      fetch,
      now: () => clock,
      sleep: (ms) => Promise.resolve(void (clock += ms)),
    },
    openai,
    grant,
    new AbortController().signal,
  );
  assert(result.kind === "done", JSON.stringify(result));
  assertEquals(result.credential.refresh_token, MOCK_REFRESH_TOKEN);
  const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
  assertEquals(exchange.fields.redirect_uri, OPENAI_DEVICE_REDIRECT);
  assertMatch(exchange.fields.code_verifier, /^openai-verifier-/);
  assertMatch(mock.requests[0].contentType, /json/, "OpenAI's device endpoints take JSON");
});
