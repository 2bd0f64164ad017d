/**
 * Streams carry real token counts where clients read them: a messages client's `message_start` names the
 * input tokens even when the upstream reports usage only at its end (the gateway's own count, the same
 * count_tokens answers), `message_delta` carries the upstream's final usage, a Gemini upstream's first
 * chunk usage reaches `message_start`, and a Responses client's `response.completed` has `total_tokens`.
 */
import { assertEquals } from "../helpers/assert.ts";
import { chatChunk, post } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { sse, startMockUpstream } from "../helpers/mock_upstream.ts";

/** The JSON data of each SSE event of a stream text, with its event name. */
function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text.split("\n\n").filter((e) => e.includes("data: ")).map((e) => {
    const event = /^event: (.+)$/m.exec(e)?.[1] ?? "";
    const data = e.slice(e.indexOf("data: ") + 6);
    return { event, data: data.trim() === "[DONE]" ? {} : JSON.parse(data) };
  });
}

const BODY = {
  max_tokens: 64,
  stream: true,
  system: "You are terse.",
  messages: [{ role: "user", content: "What is the weather like in Paris in spring?" }],
};

Deno.test("messages streams: message_start names the input tokens and message_delta the upstream's final usage", async (t) => {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(chatProvidersYaml([
    { id: "c", prefix: "chat", url: mock.url },
    { id: "g", prefix: "gem", url: mock.url, apiType: "generate_native", models: ["flash"] },
  ]));
  try {
    await t.step("an upstream that reports usage only at its end (chat completions)", async () => {
      mock.script({
        chunks: sse(
          chatChunk({ role: "assistant", content: "Mild." }),
          { ...chatChunk({}, "stop"), usage: { prompt_tokens: 31, completion_tokens: 2, total_tokens: 33 } },
          "[DONE]",
        ),
      });
      const counted = await (await post(`${gw.url}/v1/messages/count_tokens`, { ...BODY, model: "chat/m1" }))
        .json() as { input_tokens: number };
      const response = await post(`${gw.url}/v1/messages`, { ...BODY, model: "chat/m1" });
      const got = events(await response.text());
      const start = got.find((e) => e.event === "message_start")!.data.message as {
        usage: Record<string, number>;
      };
      assertEquals(
        start.usage.input_tokens,
        counted.input_tokens,
        "the gateway's count, as count_tokens gives it",
      );
      const delta = got.find((e) => e.event === "message_delta")!.data as { usage: Record<string, number> };
      assertEquals(
        [delta.usage.input_tokens, delta.usage.output_tokens],
        [31, 2],
        "the upstream's own figures",
      );
    });
    await t.step("a Gemini upstream whose first chunk reports the prompt's tokens", async () => {
      const chunk = (text: string, finish?: string) => ({
        candidates: [{
          content: { role: "model", parts: [{ text }] },
          ...(finish ? { finishReason: finish } : {}),
        }],
        usageMetadata: { promptTokenCount: 57, candidatesTokenCount: finish ? 3 : 1, totalTokenCount: 60 },
        modelVersion: "flash",
      });
      mock.script({ chunks: sse(chunk("Mild"), chunk(" spring.", "STOP")) });
      const response = await post(`${gw.url}/v1/messages`, { ...BODY, model: "gem/flash" });
      const got = events(await response.text());
      const start = got.find((e) => e.event === "message_start")!.data.message as {
        usage: Record<string, number>;
      };
      assertEquals(start.usage.input_tokens, 57, "Gemini's own count, from its first chunk");
    });
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("Responses streams: response.completed carries usage with total_tokens", async () => {
  const mock = await startMockUpstream();
  mock.script({
    chunks: sse(
      chatChunk({ role: "assistant", content: "Mild." }),
      { ...chatChunk({}, "stop"), usage: { prompt_tokens: 31, completion_tokens: 2, total_tokens: 33 } },
      "[DONE]",
    ),
  });
  const gw = await startTestGateway(chatProvidersYaml([{ id: "c", prefix: "chat", url: mock.url }]));
  try {
    const response = await post(`${gw.url}/v1/responses`, {
      model: "chat/m1",
      input: "Weather?",
      stream: true,
    });
    const completed = events(await response.text()).find((e) => e.event === "response.completed")!;
    const usage = (completed.data.response as { usage: Record<string, number> }).usage;
    assertEquals([usage.input_tokens, usage.output_tokens, usage.total_tokens], [31, 2, 33]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
