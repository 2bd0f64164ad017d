/**
 * Run as a child process by http1_pool_test.ts, with HTTP_PROXY in its environment (setting it inside
 * the test process would leak into test files running beside it): POSTs to the URL in its argument
 * through a ProviderClient (a body in parts) and prints the status and body, or `error <message>`.
 */
import { ProviderClient } from "../../src/executors/http_clients.ts";

const client = new ProviderClient((name) => Deno.env.get(name));
// A body in parts, as a big request's sliced JSON comes (fetch takes it as one Blob).
const body = ['{"a":', '"parts"}'].map((part) => new TextEncoder().encode(part));
try {
  const response = await client.post(Deno.args[0], {}, body, new AbortController().signal);
  console.log(`${response.status} ${await response.text()}`);
} catch (error) {
  console.log(`error ${(error as Error).message}`);
} finally {
  client.close();
}
