/**
 * The AWS SSO-OIDC device sign-in (Kiro) against a mock AWS OIDC server: client registration, device
 * authorisation and token polls in camelCase, RFC 8628 pacing, denial, expiry and cancel, the plan read from
 * the Kiro kind's facts (hosts derived from the region), and the OIDC refresh of the credential it stores.
 */
import { parseCredential, resolveOAuthKind } from "../../src/credentials/mod.ts";
import { kiroRefresh } from "../../src/executors/oauth/refresh_cloud.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { type DeviceFlowEndpoints, requestDeviceCode } from "../../src/features/signin/device_flow.ts";
import { signinPlan } from "../../src/features/signin/plan.ts";
import { runOnFakeClock } from "./fake_clock_run.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import {
  AWS_ACCESS_TOKEN,
  AWS_CLIENT_ID,
  AWS_CLIENT_SECRET,
  AWS_DEVICE_CODE,
  AWS_REFRESH_TOKEN,
  AWS_REFRESHED_ACCESS_TOKEN,
  AWS_USER_CODE,
  type MockAwsOidc,
  startMockAwsOidc,
} from "../helpers/mock_aws_oidc.ts";

const BUILDER_ID = "https://view.awsapps.com/start";

/** The Kiro kind's device endpoints with the mock's URLs, as a provider's `oauth:` overrides give them. */
function endpoints(mock: MockAwsOidc, overrides: { startUrl?: string; region?: string } = {}) {
  const facts = resolveOAuthKind("cloud_assistant_oauth", {
    registerUrl: `${mock.url}/client/register`,
    deviceCodeUrl: `${mock.url}/device_authorization`,
    deviceTokenUrl: `${mock.url}/token`,
    ...overrides,
  })!;
  const plan = signinPlan(facts);
  assert(typeof plan !== "string" && plan.flow === "device", String(plan));
  return { facts, endpoints: plan.endpoints };
}

/** Runs the sign-in on a fake clock (see `runOnFakeClock`). */
function run(
  mock: MockAwsOidc,
  options: { abortAfterPolls?: number; expiresInMs?: number; startUrl?: string; region?: string } = {},
) {
  return runOnFakeClock(endpoints(mock, options).endpoints, options);
}

const tokenPolls = (mock: MockAwsOidc) =>
  mock.requests.filter((r) => r.path === "/token" && r.body.grantType !== "refresh_token");

Deno.test("Kiro's sign-in plan is the AWS device flow on the real OIDC hosts of its region (us-east-1 by default)", () => {
  const facts = resolveOAuthKind("cloud_assistant_oauth", undefined)!;
  const plan = signinPlan(facts);
  assert(typeof plan !== "string" && plan.flow === "device");
  const e: DeviceFlowEndpoints = plan.endpoints;
  assertEquals(e.protocol, "aws_oidc");
  assertEquals(e.registerUrl, "https://oidc.us-east-1.amazonaws.com/client/register");
  assertEquals(e.deviceUrl, "https://oidc.us-east-1.amazonaws.com/device_authorization");
  assertEquals(e.tokenUrl, "https://oidc.us-east-1.amazonaws.com/token");
  assertEquals(e.startUrl, BUILDER_ID);
  assertEquals(e.encoding, "json");
  const eu = signinPlan(
    resolveOAuthKind("cloud_assistant_oauth", {
      region: "eu-central-1",
      startUrl: "https://acme.awsapps.com/start",
      registerUrl: "https://proxy.example/register",
    })!,
  );
  assert(typeof eu !== "string" && eu.flow === "device");
  assertEquals(eu.endpoints.deviceUrl, "https://oidc.eu-central-1.amazonaws.com/device_authorization");
  assertEquals(eu.endpoints.tokenUrl, "https://oidc.eu-central-1.amazonaws.com/token");
  assertEquals(eu.endpoints.registerUrl, "https://proxy.example/register", "a URL override beats the region");
  assertEquals(eu.endpoints.startUrl, "https://acme.awsapps.com/start");
  assertEquals(eu.endpoints.region, "eu-central-1");
});

Deno.test("requestDeviceCode() for AWS registers a public client, then asks for a code with it, all in camelCase JSON", async () => {
  await using mock = await startMockAwsOidc();
  mock.interval = 3;
  const grant = await requestDeviceCode(fetch, endpoints(mock).endpoints, 0);
  assertEquals(grant.userCode, AWS_USER_CODE);
  assertEquals(grant.verificationUri, `${mock.url}/device`);
  assertEquals(grant.verificationUriComplete, `${mock.url}/device?user_code=${AWS_USER_CODE}`);
  assertEquals(grant.intervalS, 3);
  assertEquals(grant.expiresAt, 600_000);
  assertEquals(grant.client, { clientId: AWS_CLIENT_ID, clientSecret: AWS_CLIENT_SECRET });
  const [register, device] = mock.requests;
  assertEquals(register.path, "/client/register");
  assertMatch(register.contentType, /json/);
  assertEquals(register.body.clientType, "public");
  assertEquals(register.body.issuerUrl, BUILDER_ID);
  assertEquals(register.body.scopes, [
    "codewhisperer:completions",
    "codewhisperer:analysis",
    "codewhisperer:conversations",
  ]);
  assertEquals(register.body.grantTypes, ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]);
  assertEquals(device.path, "/device_authorization");
  assertEquals(device.body, {
    clientId: AWS_CLIENT_ID,
    clientSecret: AWS_CLIENT_SECRET,
    startUrl: BUILDER_ID,
  });
});

Deno.test("requestDeviceCode() for AWS refused at registration is a 502 naming the endpoint and AWS's error", async () => {
  await using mock = await startMockAwsOidc();
  const e = { ...endpoints(mock).endpoints, scope: "" };
  const error = await assertRejects(() => requestDeviceCode(fetch, e, 0), GatewayError);
  assertEquals(error.status, 502);
  assertMatch(error.message, /\/client\/register answered invalid_request: clientName, clientType/);
});

Deno.test("runDeviceFlow() for AWS: pending, slow_down (+5 s), then tokens stored with the registered client, region and start URL", async () => {
  await using mock = await startMockAwsOidc();
  mock.interval = 2;
  mock.deviceSteps("authorization_pending", "slow_down", "authorization_pending", "ok");
  const { result, slept, clock } = await run(mock);
  assert(result.kind === "done", JSON.stringify(result));
  assertEquals(slept, [2000, 2000, 7000, 7000]);
  const polls = tokenPolls(mock);
  assertEquals(polls.length, 4);
  assertEquals(polls[0].body, {
    clientId: AWS_CLIENT_ID,
    clientSecret: AWS_CLIENT_SECRET,
    deviceCode: AWS_DEVICE_CODE,
    grantType: "urn:ietf:params:oauth:grant-type:device_code",
  });
  const c = result.credential;
  assertEquals(c.access_token, AWS_ACCESS_TOKEN);
  assertEquals(c.refresh_token, AWS_REFRESH_TOKEN);
  assertEquals(c.expires_at, Math.floor(clock / 1000) + 3600);
  assertEquals(c.extra, {
    authMethod: "builder-id",
    region: "us-east-1",
    startUrl: BUILDER_ID,
    clientId: AWS_CLIENT_ID,
    clientSecret: AWS_CLIENT_SECRET,
  });
});

Deno.test("runDeviceFlow() for AWS with an Identity Center start URL and region stores them (authMethod idc)", async () => {
  await using mock = await startMockAwsOidc();
  const startUrl = "https://acme.awsapps.com/start";
  const { result } = await run(mock, { startUrl, region: "eu-central-1" });
  assert(result.kind === "done", JSON.stringify(result));
  assertEquals(result.credential.extra?.authMethod, "idc");
  assertEquals(result.credential.extra?.region, "eu-central-1");
  assertEquals(mock.requests[0].body.issuerUrl, startUrl);
  assertEquals(mock.requests[1].body.startUrl, startUrl);
});

Deno.test("runDeviceFlow() for AWS ends as denied on AccessDeniedException", async () => {
  await using mock = await startMockAwsOidc();
  mock.deviceSteps("authorization_pending", "access_denied");
  const { result } = await run(mock);
  assertEquals(result.kind, "denied");
});

Deno.test("runDeviceFlow() for AWS ends as expired on an ExpiredTokenException named only by its __type", async () => {
  await using mock = await startMockAwsOidc();
  mock.deviceSteps("authorization_pending", "expired_token");
  const { result } = await run(mock);
  assertEquals(result.kind, "expired");
  assertEquals(tokenPolls(mock).length, 2);
});

Deno.test("runDeviceFlow() for AWS stops once the code's lifetime has passed, and a cancel stops it too", async () => {
  await using mock = await startMockAwsOidc();
  mock.interval = 5;
  mock.deviceSteps("authorization_pending");
  const expired = await run(mock, { expiresInMs: 12_000 });
  assertEquals(expired.result.kind, "expired");
  assertEquals(tokenPolls(mock).length, 2);
  const before = tokenPolls(mock).length;
  const cancelled = await run(mock, { abortAfterPolls: 1 });
  assertEquals(cancelled.result.kind, "cancelled");
  assertEquals(tokenPolls(mock).length - before, 1, "no poll after the cancel");
});

Deno.test("the credential the AWS sign-in stores refreshes through the OIDC token endpoint with its registered client", async () => {
  await using mock = await startMockAwsOidc();
  const { result } = await run(mock);
  assert(result.kind === "done");
  const { facts } = endpoints(mock);
  const blob = parseCredential(JSON.stringify(result.credential), 0);
  const refreshed = await kiroRefresh.refresh(blob, { facts, fetcher: fetch, nowS: () => 5_000 });
  assertEquals(refreshed.accessToken, AWS_REFRESHED_ACCESS_TOKEN);
  assertEquals(refreshed.expiresAt, 5_000 + 3600);
  assertEquals(refreshed.extra.clientSecret, AWS_CLIENT_SECRET, "the client stays for the next refresh");
  const refresh = mock.requests.at(-1)!;
  assertEquals(refresh.path, "/token");
  assertEquals(refresh.body, {
    clientId: AWS_CLIENT_ID,
    clientSecret: AWS_CLIENT_SECRET,
    refreshToken: AWS_REFRESH_TOKEN,
    grantType: "refresh_token",
  });
});
