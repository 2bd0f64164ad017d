/**
 * A real library pointed at the gateway for embeddings: LangChain's `OpenAIEmbeddings` (`@langchain/openai`)
 * with the gateway as its OpenAI base URL embeds documents and a query through an OpenAI-compatible upstream
 * mock and a Gemini (`generate_native`) upstream mock. Vectors come back in input order; each call leaves a
 * usage row.
 */
import { OpenAIEmbeddings } from "@langchain/openai";
import { assertEquals } from "../helpers/assert.ts";
import { openHomeStore, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { waitFor } from "../helpers/wait.ts";

/** The mocks' vector for a text: its number (`doc 3` → 3) first, so the order is checkable. */
function vectorFor(text: string): number[] {
  return [Number(text.replace(/\D/g, "") || "0"), 0.5, -0.25];
}

function startMock() {
  const seen: { path: string; json: Record<string, unknown> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    const json = await request.json();
    seen.push({ path, json });
    if (path === "/v1/embeddings") {
      const inputs: string[] = Array.isArray(json.input) ? json.input : [json.input];
      // Answered out of order: the gateway must put vectors back by `index`.
      const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: vectorFor(text) }))
        .reverse();
      return Response.json({
        object: "list",
        model: json.model,
        data,
        usage: { prompt_tokens: 3 * inputs.length, total_tokens: 3 * inputs.length },
      });
    }
    if (path.endsWith(":batchEmbedContents")) {
      const requests = json.requests as { content: { parts: { text: string }[] } }[];
      return Response.json({
        embeddings: requests.map((r) => ({ values: vectorFor(r.content.parts[0].text) })),
      });
    }
    if (path.endsWith(":embedContent")) {
      const content = json.content as { parts: { text: string }[] };
      return Response.json({ embedding: { values: vectorFor(content.parts[0].text) } });
    }
    return Response.json({ error: { message: `no route ${path}` } }, { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

function usageRows(
  gw: TestGateway,
): { model: string; client_format: string; status: number; input_tokens: number }[] {
  const store = openHomeStore(gw.dir);
  try {
    return store.db.prepare("SELECT model, client_format, status, input_tokens FROM usage ORDER BY id")
      .all() as never;
  } finally {
    store.close();
  }
}

function embeddings(gw: TestGateway, model: string): OpenAIEmbeddings {
  return new OpenAIEmbeddings({
    model,
    apiKey: "anything",
    configuration: { baseURL: `${gw.url}/v1` },
    maxRetries: 0,
  });
}

Deno.test("LangChain OpenAIEmbeddings: documents and a query through OpenAI-compatible and Gemini upstreams, in order, with usage rows", async () => {
  const mock = startMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      `  - id: gem-1\n    prefix: gem\n    api_type: generate_native\n    base_url: ${mock.url}\n    api_key: g-test\n`,
  );
  try {
    const docs = ["doc 1", "doc 2", "doc 3", "doc 4"];
    for (const model of ["oa/text-embedding-3-small", "gem/gemini-embedding-001"]) {
      const client = embeddings(gw, model);
      const vectors = await client.embedDocuments(docs);
      assertEquals(vectors, docs.map(vectorFor), model);
      assertEquals(await client.embedQuery("query 42"), vectorFor("query 42"), model);
    }
    // What each upstream received: the upstream's own model name and the texts in order.
    const openai = mock.seen.filter((c) => c.path === "/v1/embeddings");
    assertEquals(openai.map((c) => c.json.model), ["text-embedding-3-small", "text-embedding-3-small"]);
    assertEquals(openai[0].json.input, docs);
    // Gemini: the documents as one batch, the lone query through :embedContent.
    const gemini = mock.seen.filter((c) => c.path.startsWith("/v1beta/"));
    assertEquals(gemini.map((c) => c.path), [
      "/v1beta/models/gemini-embedding-001:batchEmbedContents",
      "/v1beta/models/gemini-embedding-001:embedContent",
    ]);
    assertEquals((gemini[0].json.requests as unknown[]).length, docs.length);
    await waitFor(() => usageRows(gw).length === 4, { what: "four usage rows" });
    const rows = usageRows(gw);
    assertEquals(rows.map((r) => [r.model, r.client_format, r.status]), [
      ["oa/text-embedding-3-small", "embeddings", 200],
      ["oa/text-embedding-3-small", "embeddings", 200],
      ["gem/gemini-embedding-001", "embeddings", 200],
      ["gem/gemini-embedding-001", "embeddings", 200],
    ]);
    // The OpenAI-compatible upstream reported 3 tokens per input; Gemini reports none, so the gateway estimates.
    assertEquals(rows.slice(0, 2).map((r) => r.input_tokens), [12, 3]);
    assertEquals(rows.slice(2).every((r) => r.input_tokens > 0), true);
  } finally {
    await gw.stop();
    await mock.close();
  }
});
