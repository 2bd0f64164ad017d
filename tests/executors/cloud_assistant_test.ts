import { assertEquals } from "../helpers/assert.ts";
import {
  KIRO_RUNTIME_URL,
  KIRO_SHAPER,
  kiroHosts,
  kiroModelListUrls,
  kiroRegion,
} from "../../src/executors/cloud_assistant.ts";
import { encodeKiroRequest } from "../../src/wire/kiro/mod.ts";

Deno.test("kiroHosts(): social sign-ins start at the runtime host, Identity Center at its region's AWS hosts", () => {
  assertEquals(kiroHosts(KIRO_RUNTIME_URL, {}).map((h) => [h.url, h.origin]), [
    ["https://runtime.us-east-1.kiro.dev/generateAssistantResponse", "AI_EDITOR"],
    ["https://codewhisperer.us-east-1.amazonaws.com/generateAssistantResponse", "AI_EDITOR"],
    ["https://q.us-east-1.amazonaws.com/", "CLI"],
  ]);
  const idc = {
    authMethod: "IdC",
    profileArn: "arn:aws:codewhisperer:eu-central-1:123456789012:profile/ABC",
  };
  assertEquals(kiroRegion(idc), "eu-central-1");
  assertEquals(kiroHosts(KIRO_RUNTIME_URL, idc).map((h) => h.url), [
    "https://codewhisperer.eu-central-1.amazonaws.com/generateAssistantResponse",
    "https://q.eu-central-1.amazonaws.com/",
    "https://runtime.us-east-1.kiro.dev/generateAssistantResponse",
  ]);
  assertEquals(kiroHosts("http://127.0.0.1:9", {}).map((h) => [h.url, h.target]), [
    [
      "http://127.0.0.1:9/generateAssistantResponse",
      "AmazonCodeWhispererStreamingService.GenerateAssistantResponse",
    ],
    ["http://127.0.0.1:9/", "AmazonQDeveloperStreamingService.SendMessage"],
  ]);
});

Deno.test("KIRO_SHAPER gives each host its origin on every user message, one conversation id and the profile ARN", () => {
  const { body } = encodeKiroRequest({
    model: "k/m",
    system: [],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "a" }] },
      { role: "assistant", parts: [{ kind: "text", text: "b" }] },
      { role: "user", parts: [{ kind: "text", text: "c" }] },
    ],
    tools: [],
    params: {},
    stream: true,
    source: "chat_completions",
  }, "claude-sonnet-4.5");
  let n = 0;
  const calls = KIRO_SHAPER.shape({
    baseUrl: "http://127.0.0.1:9",
    accessToken: "tok",
    extra: { profileArn: "arn:aws:codewhisperer:us-east-1:1:profile/P" },
    body,
    model: "claude-sonnet-4.5",
    stream: true,
    newId: () => (n++).toString(16).padStart(32, "0"),
  });
  assertEquals(calls.length, 2);
  // As the upstream reads them: the JSON text each host is sent.
  const [editor, q] = calls.map((c) => JSON.parse(JSON.stringify(c.json)));
  assertEquals(editor.conversationState.conversationId, "00000000-0000-0000-0000-000000000000");
  assertEquals(q.conversationState.conversationId, editor.conversationState.conversationId);
  assertEquals(editor.conversationState.currentMessage.userInputMessage.origin, "AI_EDITOR");
  assertEquals(q.conversationState.currentMessage.userInputMessage.origin, "CLI");
  assertEquals(q.conversationState.history[0].userInputMessage.origin, "CLI");
  assertEquals(q.profileArn, "arn:aws:codewhisperer:us-east-1:1:profile/P");
  assertEquals(calls[1].headers["x-amz-target"], "AmazonQDeveloperStreamingService.SendMessage");
  assertEquals(calls[0].headers.authorization, "Bearer tok");
  const builder = KIRO_SHAPER.shape({
    baseUrl: "http://127.0.0.1:9",
    accessToken: "tok",
    extra: { authMethod: "builder-id", profileArn: "arn:aws:codewhisperer:us-east-1:1:profile/P" },
    body,
    model: "m",
    stream: true,
    newId: () => "x",
  });
  assertEquals(builder[0].json.profileArn, undefined, "Builder ID accounts send no profile");
  assertEquals([403, 429, 503, 400, 401].map((s) => KIRO_SHAPER.failover(s)), [
    true,
    true,
    true,
    false,
    false,
  ]);
});

Deno.test("kiroModelListUrls() asks the AWS hosts in the kind's order (never the runtime host), with origin=AI_EDITOR", () => {
  const arn = "arn:aws:codewhisperer:eu-central-1:1:profile/P";
  const query = `origin=AI_EDITOR&profileArn=${encodeURIComponent(arn)}`;
  assertEquals(kiroModelListUrls(KIRO_RUNTIME_URL, { profileArn: arn }), [
    `https://codewhisperer.eu-central-1.amazonaws.com/ListAvailableModels?${query}`,
    `https://q.eu-central-1.amazonaws.com/ListAvailableModels?${query}`,
  ]);
  assertEquals(kiroModelListUrls(KIRO_RUNTIME_URL, { authMethod: "api_key", region: "us-west-2" }), [
    "https://q.us-west-2.amazonaws.com/ListAvailableModels?origin=AI_EDITOR",
    "https://codewhisperer.us-west-2.amazonaws.com/ListAvailableModels?origin=AI_EDITOR",
  ]);
  // Builder ID has no profile to send; another base URL (a proxy) is the one place asked.
  assertEquals(kiroModelListUrls("http://127.0.0.1:9", { authMethod: "builder-id", profileArn: arn }), [
    "http://127.0.0.1:9/ListAvailableModels?origin=AI_EDITOR",
  ]);
});
