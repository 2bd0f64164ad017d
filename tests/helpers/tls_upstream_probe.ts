/**
 * Run as a child process by http1_tls_test.ts (trust roots such as DENO_CERT are read at startup):
 * serves HTTPS with the fixture certificate and POSTs to it through a ProviderClient, printing
 * `status body` or `error <message>`.
 */
import { ProviderClient } from "../../src/executors/http_clients.ts";

const fixture = (name: string) => Deno.readTextFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, cert: fixture("cert.pem"), key: fixture("key.pem"), onListen() {} },
  async (request) => new Response(`${request.headers.get("host")} ${await request.text()}`),
);
const client = new ProviderClient(() => undefined);
try {
  for (let round = 0; round < 2; round++) {
    const response = await client.post(
      `https://localhost:${server.addr.port}/v1`,
      {},
      "hello",
      new AbortController().signal,
    );
    console.log(`${response.status} ${await response.text()}`);
  }
  console.log(`idle ${client.idleConnections}`);
} catch (error) {
  console.log(`error ${(error as Error).message}`);
} finally {
  client.close();
  await server.shutdown();
}
