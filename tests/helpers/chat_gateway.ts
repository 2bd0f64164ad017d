import type { AttemptRecord } from "../../src/gateway/usage_recorder.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "./gateway.ts";
import { type MockUpstream, startMockUpstream } from "./mock_upstream.ts";

/** A gateway with one chat-compatible account ("acct-a", prefix "p") on a mock upstream; disposed together. */
export async function startChatGateway(): Promise<
  { mock: MockUpstream; gw: TestGateway } & AsyncDisposable
> {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }]));
  return {
    mock,
    gw,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

/** A successful chat attempt on "acct-a" whose upstream reported no usage: the recorder must estimate it. */
export function attemptWithoutUsage(prompt: string, outputText = "hello world"): AttemptRecord {
  return {
    clientFormat: "chat_completions",
    identity: { kind: "anonymous" },
    request: {
      model: "p/m1",
      system: [],
      messages: [{ role: "user", parts: [{ kind: "text", text: prompt }] }],
      tools: [],
      params: {},
      stream: false,
      source: "chat_completions",
    },
    routeModel: "p/m1",
    upstreamModel: "m1",
    providerId: "acct-a",
    status: 200,
    usage: null,
    outputText,
    latencyMs: 5,
    streamed: false,
  };
}
