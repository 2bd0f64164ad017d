/**
 * Rerank through a running gateway, the way Cohere and Jina clients call it (JSON over HTTP to `/v1/rerank` and
 * `/v2/rerank`), to compatible upstream mocks at `<base>/rerank`: results most relevant first, documents back
 * as each format says, what the upstream received, usage rows priced per search unit or per token, the clear
 * 400s between chat and rerank models, fallback in a combo, a kind declared in provider config, and the model
 * listings (`/v1/models`, `/api/tags` through the `ollama` SDK).
 */
import { Ollama } from "ollama";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { openHomeStore, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { waitFor } from "../helpers/wait.ts";

/** The score the mock gives a document: its length, so the longest is the most relevant. */
function scoreOf(text: string): number {
  return text.length / 100;
}

/**
 * A compatible rerank server (Jina-like): scores by document length, answers most relevant first, returns
 * documents unless told not to, reports `usage.total_tokens` (`tokens`) or Cohere's search units (`units`).
 */
function startRerankMock(options: { units?: boolean } = {}) {
  const seen: { path: string; json: Record<string, unknown> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const json = await request.json();
    seen.push({ path: url.pathname, json });
    if (!url.pathname.endsWith("/rerank")) {
      return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 });
    }
    const documents = json.documents as (string | { text?: string })[];
    const texts = documents.map((d) => typeof d === "string" ? d : d.text ?? JSON.stringify(d));
    const ranked = texts.map((text, index) => ({ index, text })).sort((a, b) => b.text.length - a.text.length)
      .slice(0, json.top_n ?? texts.length);
    return Response.json({
      id: "rr-1",
      model: json.model,
      results: ranked.map((r) => ({
        index: r.index,
        relevance_score: scoreOf(r.text),
        ...(json.return_documents === false ? {} : { document: { text: r.text } }),
      })),
      ...(options.units
        ? { meta: { api_version: { version: "1" }, billed_units: { search_units: 1 } } }
        : { usage: { total_tokens: 7 * texts.length } }),
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

const DOCS = ["short", "the longest document of them all", "medium one"];
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

async function setup() {
  const jina = startRerankMock();
  const cohere = startRerankMock({ units: true });
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: jina-1\n    prefix: jina\n    api_type: chat_compat\n    base_url: ${jina.url}/v1\n    api_key: jk\n` +
      "    models: [jina-reranker-v2-base-multilingual, gpt-4o]\n" +
      `  - id: co-1\n    prefix: co\n    api_type: chat_compat\n    base_url: ${cohere.url}/v1\n    api_key: ck\n` +
      "    models: [rerank-v3.5, my-ranker]\n    kinds: {my-ranker: rerank}\n",
  );
  return {
    gw,
    jina,
    cohere,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await jina.close();
      await cohere.close();
    },
  };
}

function post(gw: TestGateway, path: string, body: unknown): Promise<Response> {
  return fetch(`${gw.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function usageRows(
  gw: TestGateway,
): { model: string; client_format: string; status: number; cost: number; input_tokens: number }[] {
  const store = openHomeStore(gw.dir);
  try {
    return store.db.prepare("SELECT model, client_format, status, cost, input_tokens FROM usage ORDER BY id")
      .all() as never;
  } finally {
    store.close();
  }
}

Deno.test("rerank /v1 (Jina shape): most relevant first with documents, the upstream's name sent, priced per token", async () => {
  await using s = await setup();
  const response = await post(s.gw, "/v1/rerank", {
    model: "jina/jina-reranker-v2-base-multilingual",
    query: "which is longest?",
    documents: DOCS,
    top_n: 2,
  });
  assertEquals(response.status, 200);
  const body = await response.json();
  assertEquals(body.model, "jina/jina-reranker-v2-base-multilingual");
  assertEquals(body.results.map((r: { index: number }) => r.index), [1, 2]);
  assertEquals(body.results[0].relevance_score, scoreOf(DOCS[1]));
  assertEquals(body.results[0].document, { text: DOCS[1] });
  assertEquals(body.usage, { total_tokens: 21 });
  const sent = s.jina.seen.at(-1)!;
  assertEquals(sent.path, "/v1/rerank");
  assertEquals(sent.json, {
    model: "jina-reranker-v2-base-multilingual",
    query: "which is longest?",
    documents: DOCS,
    top_n: 2,
  });
  await waitFor(() => usageRows(s.gw).length === 1, { what: "the usage row" });
  const [row] = usageRows(s.gw);
  assertEquals([row.model, row.client_format, row.status, row.input_tokens], [
    "jina/jina-reranker-v2-base-multilingual",
    "rerank",
    200,
    21,
  ]);
  // jina-reranker-v2-base-multilingual: $0.045 per 1M tokens.
  assertEquals(row.cost, 21 * 0.045 / 1e6);
});

Deno.test("rerank /v1 (Cohere shape): object documents, return_documents false, meta.billed_units, priced per search unit", async () => {
  await using s = await setup();
  const response = await post(s.gw, "/v1/rerank", {
    model: "co/rerank-v3.5",
    query: "q",
    documents: [{ text: "a", id: 7 }, { text: "bbb", id: 8 }],
    return_documents: false,
    rank_fields: ["text"],
  });
  assertEquals(response.status, 200);
  const body = await response.json();
  assertEquals(body.id, "rr-1");
  assertEquals(body.results, [{ index: 1, relevance_score: 0.03 }, { index: 0, relevance_score: 0.01 }]);
  assertEquals(body.meta.billed_units, { search_units: 1 });
  // Objects go upstream as they came, with the Cohere fields the client set.
  const sent = s.cohere.seen.at(-1)!.json;
  assertEquals(sent.documents, [{ text: "a", id: 7 }, { text: "bbb", id: 8 }]);
  assertEquals([sent.return_documents, sent.rank_fields], [false, ["text"]]);
  await waitFor(() => usageRows(s.gw).length === 1, { what: "the usage row" });
  // rerank-v3.5: $0.002 per search unit, one unit billed.
  assertEquals(usageRows(s.gw)[0].cost, 0.002);
});

Deno.test("rerank /v2 (Cohere v2): plain strings, no documents back unless asked, search units from the document count when unreported", async () => {
  await using s = await setup();
  // The Jina-like mock reports tokens, not search units: the per-search-unit price bills one unit per 100 documents.
  const plain = await post(s.gw, "/v2/rerank", { model: "jina/rerank-v3.5", query: "q", documents: DOCS });
  assertEquals(plain.status, 200);
  const body = await plain.json();
  assertEquals(Object.keys(body).sort(), ["id", "meta", "results"]);
  assertEquals(body.meta.api_version, { version: "2" });
  assertEquals(body.results.map((r: Record<string, unknown>) => Object.keys(r).sort()), [
    ["index", "relevance_score"],
    ["index", "relevance_score"],
    ["index", "relevance_score"],
  ]);
  const asked = await post(s.gw, "/v2/rerank", {
    model: "jina/jina-reranker-v2-base-multilingual",
    query: "q",
    documents: DOCS,
    top_n: 1,
    return_documents: true,
  });
  assertEquals((await asked.json()).results, [{
    index: 1,
    relevance_score: scoreOf(DOCS[1]),
    document: { text: DOCS[1] },
  }]);
  await waitFor(() => usageRows(s.gw).length === 2, { what: "two usage rows" });
  assertEquals(usageRows(s.gw).map((r) => r.cost), [0.002, 21 * 0.045 / 1e6]);
});

Deno.test("rerank: bad input is a 400 in Cohere's envelope naming the field, before any upstream is called", async () => {
  await using s = await setup();
  const cases: [string, unknown, string][] = [
    [
      "/v2/rerank",
      { model: "co/rerank-v3.5", query: "q", documents: [{ text: "x" }] },
      "documents[0]: must be a string",
    ],
    ["/v1/rerank", { model: "co/rerank-v3.5", query: "q", documents: [] }, "documents: must not be empty"],
    ["/v1/rerank", { model: "co/rerank-v3.5", documents: ["a"] }, "query: is required"],
    ["/v1/rerank", { query: "q", documents: ["a"] }, "model: is required"],
    [
      "/v1/rerank",
      { model: "co/rerank-v3.5", query: "q", documents: ["a"], top_n: 0 },
      "top_n: must be a positive",
    ],
    [
      "/v1/rerank",
      { model: "co/rerank-v3.5", query: "q", documents: [{ text: 5 }] },
      "documents[0].text: must be",
    ],
    ["/v1/rerank", [1, 2], "body: must be a JSON object"],
  ];
  for (const [path, body, says] of cases) {
    const response = await post(s.gw, path, body);
    assertEquals(response.status, 400, says);
    const error = await response.json();
    assertStringIncludes(error.message, says);
    assertEquals(error.type, "invalid_request");
  }
  const broken = await fetch(`${s.gw.url}/v1/rerank`, { method: "POST", body: "{not json" });
  assertEquals(broken.status, 400);
  assertStringIncludes((await broken.json()).message, "JSON");
  assertEquals(s.jina.seen.length + s.cohere.seen.length, 0);
});

Deno.test("rerank: a chat model asked to rerank and a rerank model asked to chat are clear 400s; no upstream is called", async () => {
  await using s = await setup();
  const chat = await post(s.gw, "/v1/rerank", { model: "jina/gpt-4o", query: "q", documents: ["a"] });
  assertEquals(chat.status, 400);
  assertStringIncludes(
    (await chat.json()).message,
    'Model "jina/gpt-4o" cannot be used for rerank: "gpt-4o" is a chat model',
  );
  const completions = await post(s.gw, "/v1/chat/completions", {
    model: "co/rerank-v3.5",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(completions.status, 400);
  assertStringIncludes(
    (await completions.json()).error.message,
    "is a rerank model: send it to the rerank endpoint",
  );
  // A kind declared in provider config wins over the name: my-ranker says nothing, but is a reranker.
  const messages = await fetch(`${s.gw.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "co/my-ranker",
      max_tokens: 5,
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  assertEquals(messages.status, 400);
  assertStringIncludes((await messages.json()).error.message, "is a rerank model");
  assertEquals(s.jina.seen.length + s.cohere.seen.length, 0);
  const declared = await post(s.gw, "/v1/rerank", {
    model: "co/my-ranker",
    query: "q",
    documents: ["a", "bb"],
  });
  assertEquals(declared.status, 200);
  assertEquals(s.cohere.seen.at(-1)?.json.model, "my-ranker");
});

Deno.test("rerank: a combo falls back from a failing account (HTTP 500) to the next member, one request-log row", async () => {
  const good = startRerankMock();
  const broken = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ message: "upstream exploded" }, { status: 500 }),
  );
  const brokenUrl = `http://127.0.0.1:${(broken.addr as Deno.NetAddr).port}`;
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: rr-broken\n    prefix: bad\n    api_type: chat_compat\n    base_url: ${brokenUrl}/v1\n    api_key: sk-a\n` +
      `  - id: rr-good\n    prefix: good\n    api_type: chat_compat\n    base_url: ${good.url}/v1\n    api_key: sk-b\n` +
      "combos:\n  - name: ranking\n    models: [bad/bge-reranker-v2-m3, good/bge-reranker-v2-m3]\n" +
      `metrics:\n  enabled: true\n  token: ${METRICS_TOKEN}\n`,
  );
  try {
    const control = gw.runtime.control;
    control.store.settings.set("server_request_logging", "true");
    control.reload();
    const response = await post(gw, "/v1/rerank", { model: "ranking", query: "q", documents: ["a", "bbb"] });
    assertEquals(response.status, 200);
    const body = await response.json();
    assertEquals(body.model, "ranking");
    assertEquals(body.results.map((r: { index: number }) => r.index), [1, 0]);
    await waitFor(() => usageRows(gw).length === 2, { what: "two attempt rows" });
    assertEquals(usageRows(gw).map((r) => [r.model, r.status]), [
      ["bad/bge-reranker-v2-m3", 500],
      ["good/bge-reranker-v2-m3", 200],
    ]);
    let rows: ReturnType<typeof control.store.requestLogs.all> = [];
    await waitFor(() => {
      gw.runtime.writer.flush();
      rows = control.store.requestLogs.all();
      return rows.length === 1;
    }, { what: "the request-log row" });
    assertEquals([rows[0].clientFormat, rows[0].status], ["rerank", 200]);
    assertStringIncludes(rows[0].requestBody, '"query":"q"');
    // Metrics name the surface rerank, with the fallback counted.
    const metrics =
      await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
        .text();
    assertStringIncludes(metrics, 'surface="rerank",model="ranking",provider="rr-good",status="200"');
  } finally {
    await gw.stop();
    await good.close();
    await broken.shutdown();
  }
});

Deno.test("rerank: an upstream answer naming a document it was not sent is a 502 in Cohere's envelope, never a 500", async () => {
  const liar = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ results: [{ index: 9, relevance_score: 1 }] }),
  );
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: rr\n    prefix: rr\n    api_type: chat_compat\n    base_url: http://127.0.0.1:${
        (liar.addr as Deno.NetAddr).port
      }/v1\n    api_key: k\n`,
  );
  try {
    const response = await post(gw, "/v1/rerank", { model: "rr/rerank-2", query: "q", documents: ["a"] });
    assertEquals(response.status, 502);
    const error = await response.json();
    assertStringIncludes(error.message, "results[0].index is not a document position");
    assertEquals(error.type, "upstream");
  } finally {
    await gw.stop();
    await liar.shutdown();
  }
});

Deno.test("rerank: a Cohere v2 base URL gets the v2 body; object documents and v1-only fields are header-safe warnings", async () => {
  const mock = startRerankMock({ units: true });
  const gw = await startTestGateway(
    "providers:\n" +
      `  - id: co2\n    prefix: co2\n    api_type: chat_compat\n    base_url: ${mock.url}/v2\n    api_key: k\n`,
  );
  try {
    const response = await post(gw, "/v1/rerank", {
      model: "co2/rerank-v3.5",
      query: "q",
      documents: ["plain", { text: "an object", title: "t" }],
      max_chunks_per_doc: 2,
      // A field only the client's format knows, named in a way no header may carry as is.
      "prïority ☃": 1,
    });
    assertEquals(response.status, 200);
    const warnings = response.headers.get("x-gateway-warnings") ?? "";
    assertStringIncludes(warnings, "changed_field:documents");
    assertStringIncludes(warnings, "dropped_field:max_chunks_per_doc");
    assertStringIncludes(warnings, "dropped_field:pr_ority__");
    await response.body?.cancel();
    const sent = mock.seen.at(-1)!;
    assertEquals(sent.path, "/v2/rerank");
    assertEquals(sent.json, { model: "rerank-v3.5", query: "q", documents: ["plain", "an object"] });
  } finally {
    await gw.stop();
    await mock.close();
  }
});

Deno.test("model listings say rerank: /v1/models kind, /api/tags capabilities and kind read by the ollama SDK", async () => {
  await using s = await setup();
  const models = await (await fetch(`${s.gw.url}/v1/models`)).json();
  const kinds = Object.fromEntries(models.data.map((m: { id: string; kind: string }) => [m.id, m.kind]));
  assertEquals(kinds["co/rerank-v3.5"], "rerank");
  assertEquals(kinds["co/my-ranker"], "rerank");
  assertEquals(kinds["jina/gpt-4o"], "chat");
  const client = new Ollama({ host: s.gw.url });
  const listed = await client.list();
  const byName = new Map(listed.models.map((m) => [m.name, m as unknown as Record<string, unknown>]));
  assertEquals(byName.get("co/rerank-v3.5")?.capabilities, ["rerank"]);
  assertEquals(byName.get("co/rerank-v3.5")?.kind, "rerank");
  assertEquals(byName.get("jina/gpt-4o")?.capabilities, ["completion", "tools", "vision"]);
  assertEquals(byName.get("jina/gpt-4o")?.kind, "chat");
  assert(listed.models.every((m) => typeof m.details.family === "string"), "Ollama's own fields stay");
  const shown = await client.show({ model: "co/my-ranker" });
  assertEquals(shown.capabilities, ["rerank"]);
});

Deno.test("rerank: a key's allowlist and rate limit apply (403 for another model, 429 over the limit, limit headers)", async () => {
  await using s = await setup();
  const key = (allowedModels: string[], rpm: number | null) =>
    s.gw.management.keys.create({
      name: `ranker-${rpm}`,
      canLogin: false,
      allowedModels,
      limits: { rpm, tpm: null, maxParallel: null },
    }).plaintext;
  const send = (secret: string, model: string) =>
    fetch(`${s.gw.url}/v2/rerank`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model, query: "q", documents: ["a", "bb"] }),
    });
  const listed = key(["co/rerank-v3.5"], null);
  const other = await send(listed, "jina/jina-reranker-v2-base-multilingual");
  assertEquals(other.status, 403);
  assertEquals((await other.json()).type, "model_not_allowed");
  const limited = key([], 1);
  const allowed = await send(limited, "co/rerank-v3.5");
  assertEquals(allowed.status, 200);
  assertEquals(allowed.headers.get("x-ratelimit-limit-requests"), "1");
  await allowed.body?.cancel();
  const over = await send(limited, "co/rerank-v3.5");
  assertEquals(over.status, 429);
  assert(over.headers.get("retry-after") !== null, "Retry-After on the 429");
  assertEquals(typeof (await over.json()).message, "string");
  assertEquals(s.cohere.seen.length + s.jina.seen.length, 1);
});
