/**
 * The benchmark's upstream: a chat-completions server answering instantly, non-stream or with a
 * 50-chunk SSE stream. The stream comes in one write, or, under the `/spaced` path prefix, one write
 * per chunk with a timer tick between them (as a real model streams: one chunk per network read); a
 * spaced stream has as many content chunks as the request's `max_tokens` (up to 1000), so streams of
 * two lengths tell the cost of one more chunk apart from the cost of a request. `/v1/embeddings` answers
 * one 1536-dimension vector (text-embedding-3-small's size) as float32 base64, or as numbers when the request
 * does not ask for base64.
 * Usage: deno run -A scripts/bench/mock_upstream.ts <port>
 */
const port = Number(Deno.args[0] ?? 18001);
const CHUNKS = 50;
const completion = JSON.stringify({
  id: "chatcmpl-bench000001",
  object: "chat.completion",
  created: 1700000000,
  model: "m1",
  choices: [{
    index: 0,
    message: { role: "assistant", content: "Hello from the benchmark upstream." },
    finish_reason: "stop",
  }],
  usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
});
/** One SSE frame of a chat.completion.chunk with the stream's fixed envelope. */
const frame = (fields: Record<string, unknown>) =>
  `data: ${
    JSON.stringify({
      id: "chatcmpl-bench000001",
      object: "chat.completion.chunk",
      created: 1700000000,
      model: "m1",
      ...fields,
    })
  }\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null) =>
  frame({ choices: [{ index: 0, delta, finish_reason: finish }] });
const MAX_SPACED_CONTENT = 1000;
const roleText = chunk({ role: "assistant", content: "" }, null);
const contentTexts = Array.from(
  { length: MAX_SPACED_CONTENT },
  (_, i) => chunk({ content: `tok${i} ` }, null),
);
const endTexts = [
  chunk({}, "stop"),
  frame({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 48, total_tokens: 60 } }),
  "data: [DONE]\n\n",
];
const stream = new TextEncoder().encode(
  [roleText, ...contentTexts.slice(0, CHUNKS - 2), ...endTexts].join(""),
);
const encoded = (texts: string[]) => texts.map((text) => new TextEncoder().encode(text));
const [roleChunk] = encoded([roleText]);
const contentChunks = encoded(contentTexts);
const endChunks = encoded(endTexts);

/** A stream of `content` content chunks (plus role, finish, usage and [DONE]), one write per chunk. */
function spacedStream(content: number): ReadableStream<Uint8Array> {
  const chunks = [roleChunk, ...contentChunks.slice(0, content), ...endChunks];
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) await new Promise((r) => setTimeout(r, 0));
      if (next === chunks.length) return controller.close();
      controller.enqueue(chunks[next++]);
    },
  });
}

const EMBEDDING_DIMENSIONS = 1536;
const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => Math.fround(Math.sin(i) / 7));
const embeddingAnswer = (embedding: unknown) =>
  JSON.stringify({
    object: "list",
    model: "text-embedding-3-small",
    data: [{ object: "embedding", index: 0, embedding }],
    usage: { prompt_tokens: 4, total_tokens: 4 },
  });
const embeddingFloats = embeddingAnswer(vector);
const embeddingBase64 = embeddingAnswer(
  btoa(String.fromCharCode(...new Uint8Array(new Float32Array(vector).buffer))),
);

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`mock upstream on ${port}`) },
  async (request) => {
    const body = await request.text();
    if (request.url.endsWith("/embeddings")) {
      return new Response(body.includes('"base64"') ? embeddingBase64 : embeddingFloats, {
        headers: { "content-type": "application/json" },
      });
    }
    if (body.includes('"stream":true')) {
      const spaced = new URL(request.url).pathname.startsWith("/spaced/");
      const content = spaced
        ? Math.min(Number(JSON.parse(body).max_tokens) || CHUNKS - 2, MAX_SPACED_CONTENT)
        : 0;
      return new Response(spaced ? spacedStream(content) : stream, {
        headers: { "content-type": "text/event-stream" },
      });
    }
    return new Response(completion, { headers: { "content-type": "application/json" } });
  },
);
