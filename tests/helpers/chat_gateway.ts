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
