/**
 * Kiro's Connect through the dashboard API: the AWS SSO-OIDC device sign-in against a mock AWS OIDC server,
 * the stored credential serving a request through a mock `generateAssistantResponse` upstream, and the
 * registered client secret kept out of every answer, the database's plain bytes and upstream error text.
 */
import { post } from "../helpers/chat_fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { recordingClient, until } from "./dashboard_helpers.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { kiroEvent } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import {
  AWS_ACCESS_TOKEN,
  AWS_CLIENT_ID,
  AWS_CLIENT_SECRET,
  AWS_DEVICE_CODE,
  AWS_REFRESH_TOKEN,
  AWS_USER_CODE,
  kiroGatewayYaml,
  type MockAwsOidc,
  startMockAwsOidc,
} from "../helpers/mock_aws_oidc.ts";
import { holdsFalse } from "../helpers/wait.ts";

const ADMIN = "static-admin-key-kiro-signin";

interface Setup extends AsyncDisposable {
  readonly gw: TestGateway;
  readonly oidc: MockAwsOidc;
  readonly kiro: MockUpstream;
}

/** A gateway with one Kiro provider (no credential yet) signing in at the mock AWS OIDC server. */
async function setup(): Promise<Setup> {
  const oidc = await startMockAwsOidc();
  const kiro = await startMockUpstream();
  const gw = await startTestGateway(kiroGatewayYaml(oidc, kiro.url, ADMIN));
  return {
    gw,
    oidc,
    kiro,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await oidc.close();
      await kiro.close();
    },
  };
}

function databaseBytes(dir: string): string {
  let text = "";
  for (const suffix of ["", "-wal"]) {
    try {
      text += new TextDecoder("latin1").decode(Deno.readFileSync(`${dir}/gateway.db${suffix}`));
    } catch { /* no such file (PostgreSQL run, or no WAL left) */ }
  }
  return text;
}

const ASK = { model: "kr/claude-sonnet-4.5", messages: [{ role: "user", content: "hi" }] };

Deno.test("dashboard API: Kiro connects by the AWS device sign-in, then serves a request with the new token; the client secret is never shown", async () => {
  await using s = await setup();
  s.oidc.deviceSteps("authorization_pending", "ok");
  const seen: string[] = [];
  const api = recordingClient(s.gw, ADMIN, seen);
  const state = await api("GET", "/v2/state/providers");
  const kiroView = (state.body.data.providers as { id: string; signin_flows: string[] }[])
    .find((p) => p.id === "kiro")!;
  assertEquals(kiroView.signin_flows, ["device"], "the Connect button appears for Kiro");
  const started = await api("POST", "/providers/kiro/connect");
  assertEquals(started.status, 201);
  assertEquals(started.body.flow, "device");
  assertEquals(started.body.device.user_code, AWS_USER_CODE);
  assertEquals(started.body.device.verification_uri, `${s.oidc.url}/device`);
  assertEquals(
    started.body.device.verification_uri_complete,
    `${s.oidc.url}/device?user_code=${AWS_USER_CODE}`,
  );
  const ended = await until(
    () => api("GET", `/providers/kiro/connect/${started.body.id}`),
    (r) => r.body.status !== "pending",
  );
  assertEquals(ended.body.status, "succeeded", JSON.stringify(ended.body));
  const stored = JSON.parse(s.gw.runtime.control.providers.find((p) => p.id === "kiro")!.apiKey);
  assertEquals(stored.access_token, AWS_ACCESS_TOKEN);
  assertEquals(stored.refresh_token, AWS_REFRESH_TOKEN);
  assertEquals(stored.extra.clientId, AWS_CLIENT_ID);
  assertEquals(stored.extra.clientSecret, AWS_CLIENT_SECRET);
  assertEquals(stored.extra.region, "us-east-1");
  assertEquals(stored.extra.authMethod, "builder-id");

  s.kiro.script({
    handler: () =>
      splitEventStream([
        kiroEvent("assistantResponseEvent", { content: "Signed in " }),
        kiroEvent("assistantResponseEvent", { content: "and answering." }),
        kiroEvent("metricsEvent", { inputTokens: 4, outputTokens: 3 }),
      ], 9),
  });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ASK);
  const body = await response.json();
  assertEquals(response.status, 200, JSON.stringify(body));
  assertEquals(body.choices[0].message.content, "Signed in and answering.");
  const call = s.kiro.requests[0];
  assertEquals(call.path, "/generateAssistantResponse");
  assertEquals(call.headers.get("authorization"), `Bearer ${AWS_ACCESS_TOKEN}`);
  assertEquals(call.body.profileArn, undefined, "Builder ID sends no profile");

  await api("GET", "/v2/state/providers");
  await api("GET", "/v2/state/routing");
  await api("GET", "/v2/state/tools");
  await api("GET", "/v2/state/request-logs");
  for (const text of seen) {
    for (const secret of [AWS_CLIENT_SECRET, AWS_ACCESS_TOKEN, AWS_REFRESH_TOKEN, AWS_DEVICE_CODE]) {
      assert(!text.includes(secret), `no secret in ${text.slice(0, 200)}`);
    }
  }
  const bytes = databaseBytes(s.gw.dir);
  assert(!bytes.includes(AWS_CLIENT_SECRET), "the client secret is stored sealed only");
  assert(!bytes.includes(AWS_REFRESH_TOKEN), "the refresh token is stored sealed only");
});

Deno.test("dashboard API: upstream error text that repeats a Kiro credential's client secret reaches the client redacted", async () => {
  await using s = await setup();
  s.oidc.deviceSteps("ok");
  const api = recordingClient(s.gw, ADMIN, []);
  const started = await api("POST", "/providers/kiro/connect");
  await until(
    () => api("GET", `/providers/kiro/connect/${started.body.id}`),
    (r) => r.body.status !== "pending",
  );
  // A 400 is not failed over: the client sees the upstream's reason, which echoes the secret bare.
  s.kiro.script({
    json: { message: `Bad request from client ${AWS_CLIENT_SECRET} in us-east-1` },
    status: 400,
  });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ASK);
  const text = await response.text();
  assertEquals(response.status, 400, text);
  assertMatch(text, /Bad request from client \[redacted\]/);
  assert(!text.includes(AWS_CLIENT_SECRET), text);
  const logs = await api("GET", "/v2/state/request-logs");
  assert(!JSON.stringify(logs.body).includes(AWS_CLIENT_SECRET), "request logs hold it redacted");
});

Deno.test("dashboard API: a denied Kiro sign-in fails and stores nothing; a cancelled one stops polling AWS", async () => {
  await using s = await setup();
  s.oidc.deviceSteps("access_denied");
  const api = recordingClient(s.gw, ADMIN, []);
  const denied = await api("POST", "/providers/kiro/connect");
  const ended = await until(
    () => api("GET", `/providers/kiro/connect/${denied.body.id}`),
    (r) => r.body.status !== "pending",
  );
  assertEquals(ended.body.status, "failed");
  assertMatch(ended.body.message, /denied/);
  assertEquals(s.gw.runtime.control.providers.find((p) => p.id === "kiro")!.apiKey, "");

  s.oidc.deviceSteps("authorization_pending");
  const started = await api("POST", "/providers/kiro/connect");
  const path = `/providers/kiro/connect/${started.body.id}`;
  const polls = () => s.oidc.requests.filter((r) => r.path === "/token").length;
  const first = polls();
  await until(() => Promise.resolve(polls()), (n) => n > first);
  const cancelled = await api("DELETE", path);
  assertEquals(cancelled.body.status, "cancelled");
  // A poll already under way when the cancel was handled may still arrive; none may follow it. Watched
  // for longer than two poll intervals (1 s), so a poller that went on would show.
  const after = polls();
  await holdsFalse(() => polls() > after + 1, 2_500, "a poll after the cancel");
  assertEquals(s.gw.runtime.control.providers.find((p) => p.id === "kiro")!.apiKey, "");
});
