/**
 * A second baseline: the bare proxy with `fetch` swapped for the gateway's own HTTP/1.1 client. The
 * gateway against this one shows what its own work costs (decode, route, adjust, encode, record), with
 * the client's saving taken out. Usage: deno run -A scripts/bench/client_proxy.ts <port> <upstream>
 */
import { Http1Pool, originOf } from "../../src/executors/http1_pool.ts";

const port = Number(Deno.args[0] ?? 18007);
const upstream = new URL(Deno.args[1] ?? "http://127.0.0.1:18001");
const pool = new Http1Pool(originOf(upstream), { maxIdle: 20, idleTimeoutMs: 90_000 });
const target = `${upstream.pathname.replace(/\/$/, "")}/v1/chat/completions`;
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: () => console.log(`client proxy on ${port}`) },
  async (request) => {
    try {
      const response = await pool.post(
        target,
        { "content-type": "application/json" },
        await request.text(),
        request.signal,
      );
      return new Response(await response.text(), {
        status: response.status,
        headers: { "content-type": response.header("content-type") ?? "application/json" },
      });
    } catch (error) {
      // The load generator hangs up at the end of each round; those calls end here quietly.
      return new Response((error as Error).message, { status: 502 });
    }
  },
);
