/**
 * Usage rows say what the work was (chat, completion, embedding, rerank), so Analytics can group and filter by
 * kind.
 */
import { assertEquals } from "../helpers/assert.ts";
import { startKindsGateway } from "../helpers/chat_fixtures.ts";

Deno.test("usage rows record the kind of work: chat, legacy and Ollama completions, embeddings, rerank", async () => {
  const { mock, gw } = await startKindsGateway([
    "m1",
    "text-embedding-3-small",
    "jina-reranker-v2-base-multilingual",
  ]);
  try {
    const messages = [{ role: "user", content: "hello" }];
    const calls: [string, unknown][] = [
      ["/v1/chat/completions", { model: "p/m1", messages }],
      ["/v1/messages", { model: "p/m1", max_tokens: 10, messages }],
      ["/v1/completions", { model: "p/m1", prompt: "Say hi" }],
      ["/api/generate", { model: "p/m1", prompt: "Say hi", stream: false }],
      ["/v1/embeddings", { model: "p/text-embedding-3-small", input: "hello" }],
      ["/v1/rerank", {
        model: "p/jina-reranker-v2-base-multilingual",
        query: "which?",
        documents: ["a", "b"],
      }],
    ];
    for (const [path, body] of calls) {
      const response = await fetch(`${gw.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assertEquals(response.status, 200, `${path}: ${await response.text()}`);
    }
    gw.runtime.writer.flush();
    const day = Math.floor(Date.now() / 86_400_000);
    const kinds = gw.runtime.control.store.usageStats.breakdown(day - 1, "kind", 10)
      .map((k) => [k.key, k.requests]).sort();
    assertEquals(kinds, [["chat", 2], ["completion", 2], ["embedding", 1], ["rerank", 1]]);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
