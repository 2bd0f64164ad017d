/**
 * The floor for a proxy that handles stream chunks in JavaScript: like the bare proxy, but each chunk
 * is read from the upstream body and enqueued into the client's body by JS code, doing nothing else
 * to it. The gateway must touch every chunk (to translate and meter it), so it pays this floor too;
 * the gap between this and the gateway is the gateway's own work per chunk.
 * Usage: deno run -A scripts/bench/js_stream_proxy.ts <port> <upstream>
 */
const port = Number(Deno.args[0] ?? 18006);
const upstream = Deno.args[1] ?? "http://127.0.0.1:18001";
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`JS stream proxy on ${port}`) },
  async (request) => {
    const response = await fetch(`${upstream}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await request.text(),
    });
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    }, { highWaterMark: 0 });
    return new Response(body, { status: response.status, headers: response.headers });
  },
);
