/**
 * Conformance of the rerank surfaces: each client format (`/v1/rerank` as Jina and Cohere v1 clients send it,
 * Cohere `/v2/rerank`) to each upstream format (a compatible `<base>/rerank`, Cohere's v2 base): the exact
 * upstream body and client bytes against golden files (UPDATE_GOLDEN=1 rewrites them).
 */
import { assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";

const GOLDEN_DIR = new URL("../fixtures/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

const UPSTREAMS = [
  { prefix: "v1", label: "v1" },
  { prefix: "v2", label: "v2" },
] as const;

/** Each client format's request for `model`, at its own endpoint. */
function clientCalls(model: string) {
  return [
    {
      label: "jina",
      path: "/v1/rerank",
      body: {
        model,
        query: "capital of France",
        documents: ["Berlin", "Paris"],
        top_n: 2,
        return_documents: true,
      },
    },
    {
      label: "cohere_v1",
      path: "/v1/rerank",
      body: {
        model,
        query: "capital of France",
        documents: [{ text: "Berlin", id: "b" }, { text: "Paris", id: "p" }],
        rank_fields: ["text"],
        max_chunks_per_doc: 4,
      },
    },
    {
      label: "cohere_v2",
      path: "/v2/rerank",
      body: { model, query: "capital of France", documents: ["Berlin", "Paris"], max_tokens_per_doc: 512 },
    },
  ];
}

function startMock() {
  const seen: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = new URL(request.url).pathname;
    const json = await request.json();
    seen.push({ path, body: json });
    const results = [{ index: 1, relevance_score: 0.98 }, { index: 0, relevance_score: 0.12 }];
    if (path === "/v2/rerank") {
      return Response.json({
        id: "co-2",
        results,
        meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } },
      });
    }
    return Response.json({
      model: json.model,
      results: results.map((r) => ({ ...r, document: { text: r.index === 1 ? "Paris" : "Berlin" } })),
      usage: { total_tokens: 9 },
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

Deno.test("rerank conformance: every client format to every rerank upstream format, against golden files", async (t) => {
  const mock = startMock();
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: v1\n    prefix: v1\n    api_type: chat_compat\n    base_url: ${mock.url}/v1\n    api_key: k1\n` +
      `  - id: v2\n    prefix: v2\n    api_type: chat_compat\n    base_url: ${mock.url}/v2\n    api_key: k2\n`,
  );
  try {
    for (const upstream of UPSTREAMS) {
      for (const call of clientCalls(`${upstream.prefix}/rerank-v3.5`)) {
        await t.step(`${call.label} → ${upstream.label}`, async () => {
          mock.seen.length = 0;
          const response = await fetch(`${gw.url}${call.path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(call.body),
          });
          const text = await response.text();
          assertEquals(response.status, 200, text);
          const warnings = response.headers.get("x-gateway-warnings");
          const actual =
            JSON.stringify({ upstream: mock.seen, client: JSON.parse(text), warnings }, null, 2) +
            "\n";
          const file = new URL(`rerank_${call.label}_to_${upstream.label}.json`, GOLDEN_DIR);
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
