/**
 * Rotation across processes and restarts: real `gateway serve` subprocesses on one database share an
 * expiring Codex credential; an in-process gateway restarted after a refresh keeps the rotated token.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startSubscriptionMock, type SubscriptionMock } from "../helpers/subscription_mock.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

function yaml(mock: SubscriptionMock, blob: string): string {
  return `providers:
  - id: codex-1
    prefix: codex
    api_type: responses_oauth
    base_url: ${mock.url}/backend-api/codex
    api_key: '${blob}'
    models: [gpt-5]
    oauth: {token_url: "${mock.url}/oauth/token"}
`;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function serve(home: string, port: number, env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--port", String(port)],
    env: { GATEWAY_HOME: home, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("listening on")) {
    const { value, done } = await reader.read();
    if (done) break;
    printed += value;
  }
  const drained = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) printed += r.value;
  })();
  const errors = new Response(child.stderr).text();
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      return printed + (await errors);
    },
  };
}

async function ask(url: string): Promise<number> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "codex/gpt-5", messages: [{ role: "user", content: "hi" }] }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("two gateway processes on one database never spend the same refresh token twice", () => race({}));

Deno.test({
  name: "two gateway instances on one PostgreSQL database never spend the same refresh token twice",
  ignore: postgresSkip("rotation race"),
  async fn() {
    await race({ GATEWAY_DATABASE_URL: await (await testPostgres()).newDatabase() });
  },
});

async function race(env: Record<string, string>) {
  const mock = await startSubscriptionMock({ refreshDelayMs: 300 });
  const home = await Deno.makeTempDir({ prefix: "gateway-rotation-" });
  const pair = mock.issue(30);
  Deno.writeTextFileSync(`${home}/config.yaml`, yaml(mock, JSON.stringify(pair)));
  const first = await serve(home, freePort(), env);
  const second = await serve(home, freePort(), env);
  let logs = "";
  try {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask(i % 2 === 0 ? first.url : second.url)),
    );
    assertEquals(statuses.filter((s) => s !== 200), [], `statuses: ${statuses.join(",")}`);
    assertEquals(mock.ledger.reuses, 0, "no refresh token was presented twice");
    assertEquals(mock.ledger.refreshes, 1, "one process refreshed; the other used what it stored");
  } finally {
    logs = (await first.stop()) + (await second.stop());
    await mock.close();
  }
  // No token of the credential ever reaches a log line.
  for (const secret of [pair.access_token, pair.refresh_token, ...mock.ledger.validAccess]) {
    assert(!logs.includes(secret), "a token was logged");
  }
  await Deno.remove(home, { recursive: true });
}

Deno.test("a restart between the refresh and the next use keeps the rotated token (the YAML still holds the old one)", async () => {
  const mock = await startSubscriptionMock();
  const dir = await Deno.makeTempDir({ prefix: "gateway-restart-" });
  const config = yaml(mock, JSON.stringify(mock.issue(30)));
  try {
    let gw = await startTestGateway(config, { dir });
    assertEquals(await ask(gw.url), 200);
    await gw.stop();
    assertEquals(mock.ledger.refreshes, 1);
    gw = await startTestGateway(config, { dir });
    assertEquals(await ask(gw.url), 200);
    // A reset to the YAML (which still holds the spent refresh token) keeps the rotated credential too.
    gw.management.configFile.reset();
    assertEquals(await ask(gw.url), 200);
    await gw.stop();
    assertEquals(mock.ledger.refreshes, 1, "nothing refreshed again");
    assertEquals(mock.ledger.reuses, 0);
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
});
