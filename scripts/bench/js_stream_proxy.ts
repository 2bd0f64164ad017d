/**
 * The floor for a proxy that handles stream chunks in JavaScript: it calls the upstream with the
 * gateway's own HTTP/1.1 client, reads each chunk and enqueues it into the client's body, doing
 * nothing else to it. The gateway must touch every chunk (to translate and meter it), so it pays this
 * floor too; the gap between this and the gateway is the gateway's own work per chunk.
 * Usage: deno run -A scripts/bench/js_stream_proxy.ts <port> <upstream>
 */
import { Http1Pool, originOf } from "../../src/executors/http1_pool.ts";

const port = Number(Deno.args[0] ?? 18006);
const upstream = new URL(Deno.args[1] ?? "http://127.0.0.1:18001");
const pool = new Http1Pool(originOf(upstream), { maxIdle: 20, idleTimeoutMs: 90_000 });
const target = `${upstream.pathname.replace(/\/$/, "")}/v1/chat/completions`;
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`JS stream proxy on ${port}`) },
  async (request) => {
    const controller = new AbortController();
    const response = await pool.post(
      target,
      { "content-type": "application/json" },
      await request.text(),
      controller.signal,
    );
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        const chunk = await response.read();
        // The chunk is a view into the connection's buffer: the client's body gets its own copy.
        if (chunk === null) stream.close();
        else stream.enqueue(chunk.slice());
      },
      cancel: () => controller.abort(),
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: response.status,
      headers: { "content-type": response.header("content-type") ?? "text/event-stream" },
    });
  },
);
