import { waitFor } from "./wait.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "./gateway.ts";
import { type MockUpstream, startMockUpstream } from "./mock_upstream.ts";

/** Small builders for chat-completions upstream answers used across data-plane tests. */

/** A non-stream chat completion. */
export function chatCompletion(
  text: string,
  usage = { prompt_tokens: 10, completion_tokens: 5 },
  extra = {},
) {
  return {
    id: "chatcmpl-upstream-1",
    object: "chat.completion",
    created: 1700000000,
    model: "m1",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    ...extra,
  };
}

/** A chat chunk with one delta. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null, extra = {}) {
  return {
    id: "chatcmpl-upstream-1",
    object: "chat.completion.chunk",
    created: 1700000000,
    model: "m1",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

/** What `usageRows` needs of a gateway. */
type UsageGateway = {
  runtime: {
    recorder: { settled(): Promise<void> };
    writer: { flush(): void };
    control: { store: { db: import("../../src/storage/mod.ts").SqlDatabase } };
  };
};

/** Rows of the usage table once rows waiting for the tokenizer are recorded and the writer is flushed. */
export async function usageRows(gw: UsageGateway) {
  await gw.runtime.recorder.settled();
  gw.runtime.writer.flush();
  return gw.runtime.control.store.db.prepare("SELECT * FROM usage ORDER BY id").all() as Record<
    string,
    unknown
  >[];
}

/** POSTs JSON to the gateway. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * The usage rows once there are at least `count`: a request's row is handed to the recorder only when the
 * gateway has finished with the request (a cut stream, a client that left), which may be after the client
 * saw its end.
 */
export async function waitForUsageRows(gw: UsageGateway, count = 1) {
  let rows: Record<string, unknown>[] = [];
  await waitFor(async () => (rows = await usageRows(gw)).length >= count, { what: `${count} usage row(s)` });
  return rows;
}

/**
 * What a mock upstream serving several kinds answers at `path`: a rerank result, an embedding (naming
 * `embeddingModel`), or a chat completion.
 */
export function kindsAnswer(path: string, embeddingModel = "text-embedding-3-small"): Response {
  if (path.endsWith("/rerank")) {
    return Response.json({
      id: "rr-1",
      results: [{ index: 0, relevance_score: 0.9 }],
      usage: { total_tokens: 6 },
    });
  }
  if (path.endsWith("/embeddings")) {
    return Response.json({
      object: "list",
      data: [{ object: "embedding", index: 0, embedding: [0.5, 0.25] }],
      model: embeddingModel,
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
  }
  return Response.json(chatCompletion("hi", { prompt_tokens: 4, completion_tokens: 2 }));
}

/** A gateway with one account (`acct-a`, prefix `p`) serving `models` from a mock answering kindsAnswer. */
export async function startKindsGateway(models: string[]): Promise<{ mock: MockUpstream; gw: TestGateway }> {
  const mock = await startMockUpstream();
  mock.script({ handler: (request) => kindsAnswer(request.path) });
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url, models }]),
  );
  return { mock, gw };
}
