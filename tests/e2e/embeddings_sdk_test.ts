/**
 * Embeddings through a running gateway with the real SDKs (`openai`, `@google/genai`, `ollama`), to an
 * OpenAI-compatible mock and a Gemini mock: vectors in input order, float and base64, what the upstream
 * received, batch splitting over Gemini's 100-input limit, usage rows priced by input tokens, and the
 * clear 400 for a chat model asked for embeddings.
 */
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { Ollama } from "ollama";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { openHomeStore, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { waitFor } from "../helpers/wait.ts";

/** The vector the mocks give the input at `index`: distinct per input so order is checkable. */
function vectorOf(index: number): number[] {
  return [index + 0.5, -index - 0.25, 1];
}

function startEmbeddingsMock() {
  const seen: { path: string; json: Record<string, unknown> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const json = await request.json();
    seen.push({ path: url.pathname, json });
    if (url.pathname === "/v1/embeddings") {
      const inputs: unknown[] = Array.isArray(json.input) ? json.input : [json.input];
      return Response.json({
        object: "list",
        model: json.model,
        data: inputs.map((_, i) => ({ object: "embedding", index: i, embedding: vectorOf(i) })),
        usage: { prompt_tokens: 8 * inputs.length, total_tokens: 8 * inputs.length },
      });
    }
    if (url.pathname.endsWith(":batchEmbedContents")) {
      const requests = json.requests as { content: { parts: { text: string }[] } }[];
      // Each vector says which input it embeds (its text's number), so a merge out of order shows.
      return Response.json({
        embeddings: requests.map((r) => ({
          values: [Number(r.content.parts[0].text.replace(/\D/g, "")), 2, 3],
        })),
      });
    }
    if (url.pathname.endsWith(":embedContent")) {
      return Response.json({ embedding: { values: [7, 8, 9] } });
    }
    return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

async function setup() {
  const mock = startEmbeddingsMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      `  - id: gem-1\n    prefix: gem\n    api_type: generate_native\n    base_url: ${mock.url}\n    api_key: g-test\n`,
  );
  return {
    gw,
    mock,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

function usageRows(
  gw: TestGateway,
): { model: string; client_format: string; status: number; cost: number }[] {
  const store = openHomeStore(gw.dir);
  try {
    return store.db.prepare("SELECT model, client_format, status, cost FROM usage ORDER BY id")
      .all() as never;
  } finally {
    store.close();
  }
}

Deno.test("openai SDK: embeddings float and base64 through an OpenAI-compatible upstream, priced per input token", async () => {
  await using s = await setup();
  const client = new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const floats = await client.embeddings.create({
    model: "oa/text-embedding-3-small",
    input: ["one", "two"],
    encoding_format: "float",
  });
  assertEquals(floats.data.map((d) => d.embedding), [vectorOf(0), vectorOf(1)]);
  assertEquals(floats.usage.prompt_tokens, 16);
  assertEquals(s.mock.seen.at(-1)?.path, "/v1/embeddings");
  assertEquals(s.mock.seen.at(-1)?.json.model, "text-embedding-3-small");
  // The SDK asks for base64 by default and decodes it: the same floats (exact in float32) come back.
  const decoded = await client.embeddings.create({ model: "oa/text-embedding-3-small", input: "one" });
  assertEquals(decoded.data[0].embedding, vectorOf(0));
  await waitFor(() => usageRows(s.gw).length === 2, { what: "two usage rows" });
  const rows = usageRows(s.gw);
  // text-embedding-3-small: $0.02 per 1M input tokens; 16 then 8 tokens.
  assertEquals(rows.map((r) => [r.client_format, r.status]), [["embeddings", 200], ["embeddings", 200]]);
  assertEquals(rows.map((r) => r.cost), [16 * 0.02 / 1e6, 8 * 0.02 / 1e6]);
});

Deno.test("openai SDK: a chat model asked for embeddings is a 400 in OpenAI's format, and no upstream is called", async () => {
  await using s = await setup();
  const client = new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const error = await assertRejects(
    () => client.embeddings.create({ model: "oa/gpt-4o", input: "hi" }),
    OpenAI.BadRequestError,
  );
  assertStringIncludes(error.message, "cannot be used for embeddings");
  assertEquals(s.mock.seen.length, 0);
});

Deno.test("openai SDK: an embedding model asked for a chat completion is a 400 in OpenAI's format, and no upstream is called", async () => {
  await using s = await setup();
  const client = new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  const error = await assertRejects(
    () =>
      client.chat.completions.create({
        model: "oa/text-embedding-3-small",
        messages: [{ role: "user", content: "hi" }],
      }),
    OpenAI.BadRequestError,
  );
  assertStringIncludes(error.message, "is an embedding model");
  assertEquals(s.mock.seen.length, 0);
});

Deno.test("genai SDK: embedContent with many inputs is split over Gemini's 100-input limit and merged in order", async () => {
  await using s = await setup();
  const client = new GoogleGenAI({ apiKey: "anything", httpOptions: { baseUrl: s.gw.url } });
  const texts = Array.from({ length: 150 }, (_, i) => `text ${i}`);
  const answer = await client.models.embedContent({ model: "gem/gemini-embedding-001", contents: texts });
  assertEquals(answer.embeddings?.map((e) => e.values?.[0]), texts.map((_, i) => i));
  const calls = s.mock.seen.filter((c) => c.path.endsWith(":batchEmbedContents"));
  assertEquals(calls.map((c) => (c.json.requests as unknown[]).length), [100, 50]);
  assertEquals(calls[0].path, "/v1beta/models/gemini-embedding-001:batchEmbedContents");
  await waitFor(() => usageRows(s.gw).length === 1, { what: "the usage row" });
  const [row] = usageRows(s.gw);
  assertEquals([row.client_format, row.status], ["embeddings", 200]);
  // Gemini reports no usage: the gateway estimates it, so a priced model's row costs something.
  assert(row.cost > 0, `cost ${row.cost}`);
});

Deno.test("genai SDK: a Gemini client reaches an OpenAI-compatible embedding model", async () => {
  await using s = await setup();
  const client = new GoogleGenAI({ apiKey: "anything", httpOptions: { baseUrl: s.gw.url } });
  const answer = await client.models.embedContent({ model: "oa/text-embedding-3-small", contents: "hello" });
  assertEquals(answer.embeddings?.[0].values, vectorOf(0));
  assertEquals(s.mock.seen.at(-1)?.json.input, "hello");
});

Deno.test("ollama SDK: embed through an OpenAI-compatible upstream", async () => {
  await using s = await setup();
  const client = new Ollama({ host: s.gw.url });
  const answer = await client.embed({ model: "oa/text-embedding-3-small", input: ["a", "b", "c"] });
  assertEquals(answer.embeddings, [vectorOf(0), vectorOf(1), vectorOf(2)]);
  const chat = await assertRejects(() => client.embed({ model: "oa/gpt-4o", input: "a" }));
  assertStringIncludes((chat as Error).message, "cannot be used for embeddings");
});
