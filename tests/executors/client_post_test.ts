/**
 * clientPost: the trace exporter's POST, over the gateway's own HTTP/1.1 client. A local server checks
 * what is sent; its answers check what comes back (status, binary body, a header, the body cap), and an
 * aborted call rejects.
 */
import { clientPost } from "../../src/executors/client_post.ts";
import { ProviderClient } from "../../src/executors/http_clients.ts";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: Uint8Array;
}

async function withServer(
  answer: () => Response | Promise<Response>,
  run: (url: string, seen: Seen[], post: ReturnType<typeof clientPost>) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      headers: request.headers,
      body: new Uint8Array(await request.arrayBuffer()),
    });
    return await answer();
  });
  const client = new ProviderClient(() => undefined);
  try {
    await run(`http://127.0.0.1:${server.addr.port}/v1/traces`, seen, clientPost(client, 1024));
  } finally {
    client.close();
    await server.shutdown();
  }
}

const signal = () => new AbortController().signal;

Deno.test("clientPost sends the bytes and headers as given, over one kept-alive connection, and answers the status and the binary body", async () => {
  const sent = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256);
  const partialSuccess = new Uint8Array([0x0a, 0x02, 0x08, 0x03]);
  await withServer(
    () => new Response(partialSuccess, { headers: { "content-type": "application/x-protobuf" } }),
    async (url, seen, post) => {
      const headers = { "content-type": "application/x-protobuf", authorization: "Bearer t-1" };
      for (let i = 0; i < 3; i++) {
        const answer = await post(url, headers, sent, signal());
        assertEquals(answer.status, 200);
        assertEquals(answer.header("content-type"), "application/x-protobuf");
        assertEquals(answer.body, partialSuccess);
      }
      assertEquals(seen.length, 3);
      assertEquals([seen[0].method, seen[0].path], ["POST", "/v1/traces"]);
      assertEquals(seen[0].headers.get("authorization"), "Bearer t-1");
      assertEquals(seen[2].body, sent);
    },
  );
});

Deno.test("clientPost keeps an error answer's headers and body, and reads at most the cap", async () => {
  let big = false;
  await withServer(
    () =>
      big
        ? new Response(new Uint8Array(64 * 1024).fill(0x61))
        : new Response("slow down", { status: 503, headers: { "retry-after": "7" } }),
    async (url, _seen, post) => {
      const busy = await post(url, {}, new Uint8Array([1]), signal());
      assertEquals([busy.status, busy.header("retry-after")], [503, "7"]);
      assertEquals(new TextDecoder().decode(busy.body), "slow down");
      big = true;
      const capped = await post(url, {}, new Uint8Array([1]), signal());
      assertEquals([capped.status, capped.body.length], [200, 1024]);
    },
  );
});

Deno.test("clientPost: an aborted call rejects", async () => {
  await withServer(
    () => new Promise<Response>(() => {}),
    async (url, seen, post) => {
      const controller = new AbortController();
      const pending = post(url, {}, "x", controller.signal);
      controller.abort(new Error("export timed out"));
      await assertRejects(() => pending);
      assert(seen.length <= 1, `${seen.length} requests reached the server`);
    },
  );
});
