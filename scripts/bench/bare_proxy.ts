/**
 * The baseline the gateway is compared with: a bare Deno.serve + fetch proxy that forwards the body
 * to the mock's `<path>` (chat completions unless given) and pipes the answer back.
 * Usage: deno run -A scripts/bench/bare_proxy.ts <port> <upstream> [path]
 */
const port = Number(Deno.args[0] ?? 18002);
const upstream = Deno.args[1] ?? "http://127.0.0.1:18001";
const path = Deno.args[2] ?? "/v1/chat/completions";
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`bare proxy on ${port}`) },
  async (request) => {
    const response = await fetch(`${upstream}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await request.text(),
    });
    return new Response(response.body, { status: response.status, headers: response.headers });
  },
);
