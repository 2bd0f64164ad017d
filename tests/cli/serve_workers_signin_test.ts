/**
 * The dashboard's Connect (sign-in) API on a real `serve --workers 2`, driven by two clients held to
 * different workers with one dashboard session: a device sign-in started on one worker is watched to success
 * on the other, a cancel on the other stops the first worker's polling, and a PKCE redirect pasted on the
 * other completes a sign-in the first started. Before sign-ins were stored in the database, each of these
 * answered 404 on the second worker.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  signinProvidersYaml,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";
import {
  dashboardLogin,
  type PinnedClient,
  pinnedClients,
  startWorkers,
  waitUntil,
} from "../helpers/workers.ts";
import { holdsFalse } from "../helpers/wait.ts";

const KEY = "static-admin-key-signin-workers";
const DEVICE_CODE = "mock-device-code-secret";

function config(mock: MockOAuth): string {
  return `api_keys:
  - key: ${KEY}
    client_key_label: admin
providers:
${signinProvidersYaml(mock)}`;
}

/** A JSON call on one worker's connection; every answer's text is kept to check none carries a secret. */
function caller(client: PinnedClient, cookie: string, seen: string[]) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await client.fetch(`/dashboard/api${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    seen.push(text);
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  };
}

function storedKey(dir: string, provider: string): string {
  const db = new DatabaseSync(join(dir, "gateway.db"), { readOnly: true });
  try {
    return (db.prepare("SELECT api_key FROM providers WHERE id = ?").get(provider) as { api_key: string })
      .api_key;
  } finally {
    db.close();
  }
}

const devicePolls = (mock: MockOAuth) =>
  mock.requests.filter((r) => r.path === "/login/oauth/access_token").length;

Deno.test("serve --workers 2: a dashboard sign-in started on one worker is watched, cancelled and completed on the other", async () => {
  await using mock = await startMockOAuth();
  const dir = await Deno.makeTempDir({ prefix: "gateway-workers-signin-" });
  await Deno.writeTextFile(join(dir, "config.yaml"), config(mock));
  const gateway = await startWorkers(dir);
  assert(gateway.url, gateway.printed());
  const clients = await pinnedClients(gateway.url);
  const seen: string[] = [];
  try {
    const [first, second] = [...clients.values()];
    const cookie = await dashboardLogin(first, KEY);
    const onFirst = caller(first, cookie, seen);
    const onSecond = caller(second, cookie, seen);

    // Device code: started on the first worker (which polls the mock), watched on the second to success.
    mock.deviceSteps("authorization_pending", "ok");
    const before = storedKey(dir, "copilot");
    const started = await onFirst("POST", "/providers/copilot/connect");
    assertEquals(started.status, 201);
    const path = `/providers/copilot/connect/${started.body.id}`;
    const watched = await onSecond("GET", path);
    assertEquals(watched.status, 200, `the second worker knows the sign-in: ${JSON.stringify(watched.body)}`);
    assertEquals(watched.body.device.user_code, mock.userCode);
    assertEquals(watched.body.status, "pending");
    let ended = watched;
    await waitUntil(
      async () => {
        ended = await onSecond("GET", path);
        return ended.body.status !== "pending";
      },
      20_000,
      200,
    );
    assertEquals(ended.body.status, "succeeded", JSON.stringify(ended.body));
    const after = storedKey(dir, "copilot");
    assert(after !== before && after.startsWith("enc:v1:"), "the credential is stored, sealed");

    // Cancel on the second worker: the first stops polling the provider.
    mock.deviceSteps("authorization_pending");
    const again = await onFirst("POST", "/providers/copilot/connect");
    assertEquals(again.status, 201);
    const againPath = `/providers/copilot/connect/${again.body.id}`;
    await waitUntil(() => devicePolls(mock) >= 3, 20_000, 50);
    const polls = devicePolls(mock);
    const cancelled = await onSecond("DELETE", againPath);
    assertEquals([cancelled.status, cancelled.body.status], [200, "cancelled"]);
    // The poller re-reads the row before each poll, so at most the poll already under way when the cancel
    // was committed can still arrive, however late the first worker gets to run. Watched for longer than
    // two poll intervals (1 s), so a poller that went on would show.
    await holdsFalse(
      () => devicePolls(mock) > polls + 1,
      3_000,
      "a poll by the first worker after the cancel on the second (beyond one under way)",
    );
    assertEquals(storedKey(dir, "copilot"), after, "nothing saved for the cancelled sign-in");
    assertEquals((await onFirst("GET", againPath)).body.status, "cancelled");

    // PKCE: started on the first worker, the redirect pasted on the second.
    const pkce = await onFirst("POST", "/providers/claude/connect");
    assertEquals([pkce.status, pkce.body.flow], [201, "pkce"]);
    const visit = await fetch(pkce.body.pkce.authorize_url, { redirect: "manual" });
    await visit.body?.cancel();
    const pasted = await onSecond("POST", `/providers/claude/connect/${pkce.body.id}/redirect`, {
      redirect_url: visit.headers.get("location"),
    });
    assertEquals([pasted.status, pasted.body.status], [200, "succeeded"], JSON.stringify(pasted.body));
    assertEquals(mock.requests.filter((r) => r.path === "/oauth/token").length, 1, "one code exchange");
    assertEquals(
      (await onFirst("GET", `/providers/claude/connect/${pkce.body.id}`)).body.status,
      "succeeded",
    );

    for (const text of seen) {
      for (const secret of [DEVICE_CODE, MOCK_ACCESS_TOKEN, MOCK_REFRESH_TOKEN]) {
        assert(!text.includes(secret), `a secret in an answer: ${text.slice(0, 200)}`);
      }
    }
  } finally {
    for (const c of clients.values()) c.close();
    const { code, output } = await gateway.stop();
    assertEquals(code, 0, output + await gateway.errors);
    await Deno.remove(dir, { recursive: true });
  }
});
