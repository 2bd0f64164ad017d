/**
 * The Cloud Code and cloud-assistant upstreams behind a real gateway, against mock upstreams that speak
 * their wire: host failover, exception frames and corrupt frames, the v1internal envelope and RetryInfo.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";
import { kiroEvent, kiroException } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";

const ask = { model: "p/claude-sonnet-4.5", messages: [{ role: "user", content: "hi" }] };

interface Setup {
  kiro: MockUpstream;
  backup: MockUpstream;
  gw: TestGateway;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A cloud-assistant account (kiro-1) and a chat-compatible backup (backup-1) sharing prefix "p". */
async function setup(apiType = "cloud_assistant_oauth", apiKey = "kiro-token"): Promise<Setup> {
  const kiro = await startMockUpstream();
  const backup = await startMockUpstream();
  backup.script({ json: chatCompletion("from backup") });
  const gw = await startTestGateway(
    "providers:\n" +
      `  - {id: kiro-1, prefix: p, api_type: ${apiType}, base_url: "${kiro.url}", api_key: '${apiKey}', models: [claude-sonnet-4.5]}\n` +
      `  - {id: backup-1, prefix: p, api_type: chat_compat, base_url: "${backup.url}/v1", api_key: b, models: [claude-sonnet-4.5]}\n`,
  );
  return {
    kiro,
    backup,
    gw,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await kiro.close();
      await backup.close();
    },
  };
}

const ANSWER = [
  kiroEvent("assistantResponseEvent", { content: "Hello " }),
  kiroEvent("assistantResponseEvent", { content: "there." }),
  kiroEvent("metricsEvent", { inputTokens: 9, outputTokens: 3 }),
];

Deno.test("cloud assistant: a 429 from the first host moves to the Q host with the CLI origin and its target", async () => {
  await using s = await setup();
  s.kiro.script(
    { json: { message: "Too many requests" }, status: 429 },
    { handler: () => splitEventStream(ANSWER, 5) },
  );
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask);
  const body = await response.json();
  assertEquals(response.status, 200, JSON.stringify(body));
  assertEquals(body.choices[0].message.content, "Hello there.");
  assertEquals(body.usage.prompt_tokens, 9);
  const [first, second] = s.kiro.requests;
  assertEquals(first.path, "/generateAssistantResponse");
  assertEquals(second.path, "/");
  assertEquals(second.headers.get("x-amz-target"), "AmazonQDeveloperStreamingService.SendMessage");
  const state = second.body.conversationState as { currentMessage: { userInputMessage: { origin: string } } };
  assertEquals(state.currentMessage.userInputMessage.origin, "CLI");
  assertEquals(second.headers.get("authorization"), "Bearer kiro-token");
  assertEquals(s.backup.requests.length, 0);
});

/** What a host answers when the origin/target pair is not the one it accepts (CPA-Plus saw 403s). */
const PAIR_REFUSED = {
  json: { __type: "AccessDeniedException", message: "Origin CLI is not allowed for this target" },
  status: 403,
};

Deno.test("cloud assistant: a mismatched origin/target 403 moves to the next host's pair; the account is not cooled as dead", async () => {
  await using s = await setup();
  s.kiro.script(PAIR_REFUSED, { handler: () => splitEventStream(ANSWER, 4) });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask);
  const body = await response.json();
  assertEquals(response.status, 200, JSON.stringify(body));
  assertEquals(body.choices[0].message.content, "Hello there.");
  const [first, second] = s.kiro.requests;
  assertEquals(
    first.headers.get("x-amz-target"),
    "AmazonCodeWhispererStreamingService.GenerateAssistantResponse",
  );
  const origin = (r: typeof first) =>
    (r.body.conversationState as { currentMessage: { userInputMessage: { origin: string } } })
      .currentMessage.userInputMessage.origin;
  assertEquals(origin(first), "AI_EDITOR");
  assertEquals(second.path, "/");
  assertEquals(second.headers.get("x-amz-target"), "AmazonQDeveloperStreamingService.SendMessage");
  assertEquals(origin(second), "CLI");
  assertEquals(s.backup.requests.length, 0, "the account answered; no fallback");
  const cooling = s.gw.runtime.routing.active(Date.now()).find((c) => c.accountId === "kiro-1");
  assertEquals(cooling, undefined, "a refused pair is not a dead account");
  // The next request starts at the first host again and still gets its answer from the account.
  s.kiro.script(PAIR_REFUSED, { handler: () => splitEventStream(ANSWER, 4) });
  const again = await post(`${s.gw.url}/v1/chat/completions`, ask);
  assertEquals(again.status, 200);
  await again.body?.cancel();
  assertEquals(s.kiro.requests.length, 4);
  assertEquals(s.backup.requests.length, 0);
});

Deno.test("cloud assistant: a refused pair then a 429 on the other host cools the account for the rate limit, not as an auth failure", async () => {
  await using s = await setup();
  s.kiro.script(PAIR_REFUSED, { json: { message: "Too many requests" }, status: 429 });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask);
  assertEquals(response.status, 200);
  assertStringIncludes(await response.text(), "from backup");
  assertEquals(s.kiro.requests.length, 2, "both hosts asked before falling back");
  const cooling = s.gw.runtime.routing.active(Date.now()).find((c) => c.accountId === "kiro-1");
  assert(
    cooling?.kind === "rate_limit" || cooling?.kind === "body_rate_limit",
    `cooling as ${cooling?.kind}, the last host's 429`,
  );
});

Deno.test("cloud assistant: an exception frame before any content falls back to the next account", async () => {
  await using s = await setup();
  s.kiro.script({
    handler: () => splitEventStream([kiroException("ThrottlingException", "slow down"), ...ANSWER], 7),
  });
  for (const stream of [false, true]) {
    const response = await post(`${s.gw.url}/v1/chat/completions`, { ...ask, stream });
    const text = await response.text();
    assertEquals(response.status, 200);
    assertStringIncludes(text, "from backup");
    s.gw.runtime.routing.clearAll();
  }
});

Deno.test("cloud assistant: a frame with a corrupted checksum is detected, never decoded; the attempt falls back", async () => {
  await using s = await setup();
  const corrupt = ANSWER.map((f) => f.slice());
  corrupt[1][corrupt[1].length - 10] ^= 0x20;
  s.kiro.script({ handler: () => splitEventStream(corrupt, 11) });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask);
  assertEquals(response.status, 200);
  assertStringIncludes(await response.text(), "from backup");
  const cooling = s.gw.runtime.routing.active(Date.now()).find((c) => c.accountId === "kiro-1");
  assert(cooling !== undefined, "the account with the corrupt stream cools down");
});

Deno.test("cloud assistant: a stream cut by an exception after content shows the error to a streaming client", async () => {
  await using s = await setup();
  s.kiro.script({
    handler: () => splitEventStream([ANSWER[0], kiroException("InternalServerException", "boom")], 6),
  });
  const response = await post(`${s.gw.url}/v1/chat/completions`, { ...ask, stream: true });
  const text = await response.text();
  assertStringIncludes(text, "Hello ");
  assertStringIncludes(text, "InternalServerException");
  assertEquals(s.backup.requests.length, 0, "no fallback after the first byte");
});

Deno.test("cli_oauth: the envelope carries project, model and ids; a 429 with RetryInfo cools the account for that delay", async () => {
  const blob = JSON.stringify({ access_token: "goog-access", extra: { project_id: "proj-42" } });
  await using s = await setup("cli_oauth", blob);
  s.kiro.script({
    json: {
      error: {
        code: 429,
        message: "Resource exhausted",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "120s" }],
      },
    },
    status: 429,
  });
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask);
  assertEquals(response.status, 200);
  assertStringIncludes(await response.text(), "from backup");
  const sent = s.kiro.requests[0];
  assertEquals(sent.path, "/v1internal:generateContent");
  assertEquals(sent.headers.get("authorization"), "Bearer goog-access");
  assertEquals(sent.body.project, "proj-42");
  assertEquals(sent.body.model, "claude-sonnet-4.5");
  assert(typeof sent.body.requestId === "string" && sent.body.requestId !== "", "request id");
  const request = sent.body.request as Record<string, unknown>;
  assert(typeof request.sessionId === "string", "session id inside request");
  assert(Array.isArray(request.contents), "generate-content body inside request");
  const cooling = s.gw.runtime.routing.active(Date.now()).find((c) => c.accountId === "kiro-1");
  assert(
    cooling !== undefined && cooling.remainingSeconds >= 115 && cooling.remainingSeconds <= 152,
    `cooldown ${cooling?.remainingSeconds}`,
  );
});

Deno.test("cli_oauth: a client's traceparent reaches every host a shaped call tries, and the fallback account", async () => {
  const blob = JSON.stringify({ access_token: "goog-access", extra: { project_id: "proj-42" } });
  await using s = await setup("cli_oauth", blob);
  s.kiro.script({ json: { error: { code: 500, message: "boom", status: "INTERNAL" } }, status: 500 });
  const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const response = await post(`${s.gw.url}/v1/chat/completions`, ask, {
    traceparent,
    tracestate: "client=1",
  });
  assertEquals(response.status, 200);
  await response.body?.cancel();
  // Telemetry is off: the caller's trace passes through as a plain proxy would pass it.
  for (const sent of [s.kiro.requests[0], s.backup.requests[0]]) {
    assertEquals(sent.headers.get("traceparent"), traceparent);
    assertEquals(sent.headers.get("tracestate"), "client=1");
  }
  assertEquals(s.kiro.requests[0].headers.get("authorization"), "Bearer goog-access");
});
