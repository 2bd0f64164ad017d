/**
 * Conformance of the embeddings surfaces: each client format (OpenAI, Gemini, Ollama) to each upstream
 * format that serves embeddings (OpenAI-compatible, Gemini): the exact upstream body and client bytes
 * against golden files (UPDATE_GOLDEN=1 rewrites them).
 */
import { assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";

const GOLDEN_DIR = new URL("../fixtures/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

const UPSTREAMS = [
  { prefix: "oa", model: "text-embedding-3-small", label: "openai" },
  { prefix: "gem", model: "gemini-embedding-001", label: "gemini" },
] as const;

/** Each client format's request for `model`, at its own endpoint. */
function clientCalls(model: string) {
  return [
    { label: "openai", path: "/v1/embeddings", body: { model, input: ["alpha", "beta"], dimensions: 3 } },
    {
      label: "gemini",
      path: `/v1beta/models/${model}:batchEmbedContents`,
      body: {
        requests: [
          { model: `models/${model}`, content: { parts: [{ text: "alpha" }] }, outputDimensionality: 3 },
          { model: `models/${model}`, content: { parts: [{ text: "beta" }] }, outputDimensionality: 3 },
        ],
      },
    },
    { label: "ollama", path: "/api/embed", body: { model, input: ["alpha", "beta"], dimensions: 3 } },
  ];
}

function startMock() {
  const seen: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    const json = await request.json();
    seen.push({ path, body: json });
    if (path === "/v1/embeddings") {
      return Response.json({
        object: "list",
        model: json.model,
        data: [0, 1].map((i) => ({ object: "embedding", index: i, embedding: [i, 0.5, -1] })),
        usage: { prompt_tokens: 4, total_tokens: 4 },
      });
    }
    return Response.json({ embeddings: [0, 1].map((i) => ({ values: [i, 0.5, -1] })) });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

Deno.test("embeddings conformance: every client format to every embeddings upstream, against golden files", async (t) => {
  const mock = startMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: oa-1\n    prefix: oa\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: sk-test\n` +
      `  - id: gem-1\n    prefix: gem\n    api_type: generate_native\n    base_url: ${mock.url}\n    api_key: g-test\n`,
  );
  try {
    for (const upstream of UPSTREAMS) {
      for (const call of clientCalls(`${upstream.prefix}/${upstream.model}`)) {
        await t.step(`${call.label} → ${upstream.label}`, async () => {
          mock.seen.length = 0;
          const response = await fetch(`${gw.url}${call.path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(call.body),
          });
          const text = await response.text();
          assertEquals(response.status, 200, text);
          const actual = JSON.stringify({ upstream: mock.seen, client: JSON.parse(text) }, null, 2) + "\n";
          const file = new URL(`embeddings_${call.label}_to_${upstream.label}.json`, GOLDEN_DIR);
          if (UPDATE) await Deno.writeTextFile(file, actual);
          assertEquals(actual, await Deno.readTextFile(file));
        });
      }
    }
  } finally {
    await gw.stop();
    await mock.close();
  }
});
