import { assertEquals } from "../helpers/assert.ts";
import { startGateway } from "../../src/cli/serve.ts";
import { tempHome } from "../helpers/temp_home.ts";

const ADMIN = "sk-static-admin-key-0001";

/** A loopback port nothing listens on right now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("--host and --port win over the file in what the dashboard reports as the listen address", async () => {
  const home = tempHome(
    `server:\n  host: 127.0.0.1\n  port: 20128\napi_keys:\n  - key: ${ADMIN}\n    client_key_label: admin\n`,
  );
  const port = freePort();
  const gateway = await startGateway({
    config: home.config,
    port,
    host: "127.0.0.1",
    env: () => undefined,
    now: Date.now,
  });
  try {
    assertEquals(gateway.url, `http://127.0.0.1:${port}`);
    const response = await fetch(`${gateway.url}/dashboard/api/v2/state/settings`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const state = await response.json() as { data: { server: { host: string; port: number } } };
    assertEquals([state.data.server.host, state.data.server.port], ["127.0.0.1", port]);
  } finally {
    await gateway.close();
    home.cleanup();
  }
});
