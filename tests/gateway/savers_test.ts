import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatCompletion, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

// A log whose lines repeat apart from their timestamps: RTK folds those (a line with a value of its own,
// like a sequence number, would be kept).
function bigToolConversation() {
  const log = Array.from(
    { length: 400 },
    (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO worker heartbeat ok queue=${i % 3}`,
  ).join("\n");
  return {
    model: "p/m1",
    messages: [
      { role: "user", content: "check the logs" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "sh", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: log },
    ],
  };
}

function toolContent(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === "tool")!.content;
}

Deno.test("RTK shrinks long tool results; x-gateway-savers: off bypasses every saver", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    const original = toolContent(bigToolConversation());
    assertEquals((await post(`${gw.url}/v1/chat/completions`, bigToolConversation())).status, 200);
    const compressed = toolContent(mock.requests[0].body);
    assert(compressed.length < original.length / 2, `${compressed.length} vs ${original.length}`);
    await (await post(`${gw.url}/v1/chat/completions`, bigToolConversation(), { "x-gateway-savers": "off" }))
      .body?.cancel();
    assertEquals(toolContent(mock.requests[1].body), original);
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("saver savings are persisted and survive a restart", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const dir = Deno.makeTempDirSync();
  const yaml = chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]);
  try {
    const first = await startTestGateway(yaml, { dir });
    await (await post(`${first.url}/v1/chat/completions`, bigToolConversation())).body?.cancel();
    await first.stop();
    const second = await startTestGateway(yaml, { dir });
    const row = second.runtime.control.store.db.prepare("SELECT * FROM saver_stats WHERE saver = 'rtk'")
      .get() as {
        requests: number;
        bytes_before: number;
        bytes_after: number;
      };
    assertEquals(row.requests, 1);
    assert(row.bytes_after < row.bytes_before);
    await second.stop();
  } finally {
    Deno.removeSync(dir, { recursive: true });
    await mock.close();
  }
});

Deno.test("Caveman adds its instruction to the system prompt sent upstream", async () => {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("ok") });
  const gw = await startTestGateway(chatProvidersYaml([{ id: "a", prefix: "p", url: mock.url }]));
  try {
    gw.runtime.control.store.settings.set("saver_caveman_enabled", "true");
    gw.runtime.control.reload();
    await (await post(`${gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "system", content: "Be helpful." }, { role: "user", content: "hi" }],
    })).body?.cancel();
    const messages = mock.requests[0].body.messages as { role: string; content: string }[];
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
    assertStringIncludes(system, "Be helpful.");
    assert(system.length > "Be helpful.".length + 50, system);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
