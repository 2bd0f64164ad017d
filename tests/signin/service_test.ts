import { GatewayError } from "../../src/model/mod.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../helpers/assert.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";
import { signinOver } from "./signin_helpers.ts";
import { holdsFalse } from "../helpers/wait.ts";

/** A service over its own in-memory database, polling without waiting; `saved` collects what it stores. */
function service(mock: MockOAuth) {
  return signinOver(mock);
}

Deno.test("SigninService: a device sign-in shows the code and link, polls to success and saves the credential", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "slow_down", "ok");
  const { signin, saved } = service(mock);
  const started = await signin.start("copilot", "owner-a");
  assertEquals(started.flow, "device");
  assertEquals(started.status, "pending");
  assertEquals(started.device?.user_code, "WDJB-MJHT");
  const ended = await signin.settled(started.id, "owner-a");
  assertEquals(ended.status, "succeeded");
  assertEquals(ended.device?.interval_s, 6, "slow_down lengthened the interval");
  assertEquals(saved, [{ id: "copilot", credential: { access_token: MOCK_ACCESS_TOKEN } }]);
  for (const view of [started, ended]) {
    const text = JSON.stringify(view);
    assert(!text.includes(MOCK_ACCESS_TOKEN) && !text.includes("mock-device-code-secret"), text);
  }
});

Deno.test("SigninService: a PKCE sign-in keeps a wrong-state paste open, then completes with the real redirect", async () => {
  await using mock = await startMockOAuth();
  const { signin, saved } = service(mock);
  const started = await signin.start("copilot", "owner-a", "pkce");
  assert(started.pkce);
  const landed = await fetch(started.pkce.authorize_url, { redirect: "manual" });
  await landed.body?.cancel();
  const redirect = landed.headers.get("location")!;
  const forged = redirect.replace(/state=[^&]+/, "state=forged");
  await assertRejects(
    () => signin.submit(started.id, "owner-a", forged),
    GatewayError,
    "state does not match",
  );
  assertEquals(signin.get(started.id, "owner-a").status, "pending");
  const done = await signin.submit(started.id, "owner-a", redirect);
  assertEquals(done.status, "succeeded");
  assertEquals(saved[0].credential.refresh_token, MOCK_REFRESH_TOKEN);
  assert(!JSON.stringify(done).includes(MOCK_ACCESS_TOKEN));
  await assertRejects(
    () => signin.submit(started.id, "owner-a", redirect),
    GatewayError,
    "already succeeded",
  );
});

Deno.test("SigninService: a failed code exchange ends the attempt with the token endpoint's reason", async () => {
  await using mock = await startMockOAuth();
  const { signin, saved } = service(mock);
  const started = await signin.start("copilot", "owner-a", "pkce");
  const state = new URL(started.pkce!.authorize_url).searchParams.get("state");
  await assertRejects(
    () => signin.submit(started.id, "owner-a", `never-issued#${state}`),
    GatewayError,
    "invalid_grant",
  );
  const view = signin.get(started.id, "owner-a");
  assertEquals(view.status, "failed");
  assertEquals(saved, []);
});

Deno.test("SigninService: a sign-in is invisible to another owner and cancellable by its own", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending");
  const { signin, saved } = service(mock);
  const started = await signin.start("copilot", "owner-a");
  assertThrows(() => signin.get(started.id, "owner-b"), GatewayError, "does not exist");
  assertThrows(() => signin.cancel(started.id, "owner-b"), GatewayError, "does not exist");
  assertEquals(signin.cancel(started.id, "owner-a").status, "cancelled");
  assertEquals((await signin.settled(started.id, "owner-a")).status, "cancelled");
  // Its polling has ended (settled); nothing may reach the provider after it.
  const polls = mock.requests.length;
  await holdsFalse(() => mock.requests.length > polls, 50, "a poll after cancel");
  assertEquals(saved, []);
});

Deno.test("SigninService: a denied device sign-in ends as failed and stores nothing", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "access_denied");
  const { signin, saved } = service(mock);
  const started = await signin.start("copilot", "owner-a");
  const ended = await signin.settled(started.id, "owner-a");
  assertEquals(ended.status, "failed");
  assertEquals(ended.message, "The sign-in was denied on the provider's page");
  assertEquals(saved, []);
});

Deno.test("SigninService: an API-key provider or an unknown one cannot sign in", async () => {
  await using mock = await startMockOAuth();
  const { signin } = service(mock);
  await assertRejects(() => signin.start("plain", "o"), GatewayError, "only subscription kinds sign in");
  await assertRejects(() => signin.start("nope", "o"), GatewayError, "does not exist");
});

Deno.test("SigninService: starting again for a provider replaces the open sign-in", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending");
  const { signin } = service(mock);
  const first = await signin.start("copilot", "owner-a");
  const second = await signin.start("copilot", "owner-a", "pkce");
  assertEquals(signin.get(first.id, "owner-a").status, "cancelled");
  assertEquals(signin.get(first.id, "owner-a").message, "Replaced by a newer sign-in");
  assertEquals((await signin.settled(first.id, "owner-a")).status, "cancelled", "its polling stopped");
  assertEquals(signin.get(second.id, "owner-a").status, "pending");
});

Deno.test("SigninService: close() cancels the device sign-ins this process polls; a PKCE one stays open for any process", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending");
  const { signin, saved } = service(mock);
  const device = await signin.start("copilot", "owner-a");
  const pkce = await signin.start("other", "owner-a", "pkce");
  await signin.close();
  const ended = signin.get(device.id, "owner-a");
  assertEquals([ended.status, ended.message], ["cancelled", "The gateway that was polling it shut down"]);
  assertEquals(signin.get(pkce.id, "owner-a").status, "pending");
  const polls = mock.requests.length;
  await holdsFalse(() => mock.requests.length > polls, 50, "a poll after close");
  assertEquals(saved, []);
});
