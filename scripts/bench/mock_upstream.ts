/**
 * The benchmark's upstream: a chat-completions server answering instantly, non-stream or with a
 * 50-chunk SSE stream. Usage: deno run -A scripts/bench/mock_upstream.ts <port>
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
const chunk = (delta: Record<string, unknown>, finish: string | null) =>
  `data: ${
    JSON.stringify({
      id: "chatcmpl-bench000001",
      object: "chat.completion.chunk",
      created: 1700000000,
      model: "m1",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
const stream = new TextEncoder().encode(
  [chunk({ role: "assistant", content: "" }, null)]
    .concat(Array.from({ length: CHUNKS - 2 }, (_, i) => chunk({ content: `tok${i} ` }, null)))
    .concat([
      chunk({}, "stop"),
      `data: ${
        JSON.stringify({
          id: "chatcmpl-bench000001",
          object: "chat.completion.chunk",
          created: 1700000000,
          model: "m1",
          choices: [],
          usage: { prompt_tokens: 12, completion_tokens: 48, total_tokens: 60 },
        })
      }\n\n`,
      "data: [DONE]\n\n",
    ])
    .join(""),
);

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`mock upstream on ${port}`) },
  async (request) => {
    const body = await request.text();
    if (body.includes('"stream":true')) {
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    return new Response(completion, { headers: { "content-type": "application/json" } });
  },
);
