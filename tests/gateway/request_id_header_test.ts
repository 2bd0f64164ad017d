/**
 * `x-gateway-request-id`: every model surface's answer (and error) names the request's uid, which is the
 * key of its row in the request log, so a client finds its own row among concurrent ones.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { kindsAnswer } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

Deno.test("x-gateway-request-id names each model request's request-log row, on every surface and on errors", async () => {
  const mock = await startMockUpstream();
  mock.script({ handler: (request) => kindsAnswer(request.path, "m1") });
  const gw = await startTestGateway(chatProvidersYaml([
    {
      id: "acct-a",
      prefix: "p",
      url: mock.url,
      models: ["m1", "text-embedding-3-small", "jina-reranker-v2-base-multilingual"],
    },
  ]));
  try {
    const messages = [{ role: "user", content: "hello" }];
    const calls: [string, string, unknown, number][] = [
      ["/v1/chat/completions", "chat_completions", { model: "p/m1", messages }, 200],
      ["/v1/messages", "messages", { model: "p/m1", max_tokens: 10, messages }, 200],
      ["/v1/responses", "responses", { model: "p/m1", input: "hello" }, 200],
      ["/v1beta/models/p%2Fm1:generateContent", "generate_content", {
        contents: [{ role: "user", parts: [{ text: "hello" }] }],
      }, 200],
      ["/api/chat", "local_runner", { model: "p/m1", messages, stream: false }, 200],
      ["/v1/embeddings", "chat_completions", { model: "p/text-embedding-3-small", input: "hello" }, 200],
      ["/v1/rerank", "chat_completions", {
        model: "p/jina-reranker-v2-base-multilingual",
        query: "which?",
        documents: ["a", "b"],
      }, 200],
      ["/v1/chat/completions", "chat_completions", { model: "nobody/m1", messages }, 404],
    ];
    const uids: string[] = [];
    for (const [path, format, body, status] of calls) {
      const response = await fetch(`${gw.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      assertEquals(response.status, status, path);
      const uid = response.headers.get("x-gateway-request-id");
      assert(uid !== null && uid !== "", `${path} names its request`);
      gw.runtime.writer.flush();
      const row = gw.runtime.control.store.requests.byUid(uid);
      assertEquals([row?.clientFormat, row?.status], [format, status], `${path}: the row of ${uid}`);
      uids.push(uid);
    }
    assertEquals(new Set(uids).size, uids.length, "each request has its own uid");
  } finally {
    await gw.stop();
    await mock.close();
  }
});
