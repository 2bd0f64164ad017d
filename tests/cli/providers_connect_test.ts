/**
 * `gateway providers connect` as a user on a headless server runs it: a child process reading the code
 * exchange from its terminal, signing in at a mock OAuth server, and storing the credential sealed.
 */
import { resolveHomePaths } from "../../src/config/mod.ts";
import { Store } from "../../src/storage/mod.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { post } from "../helpers/chat_fixtures.ts";
import { kiroEvent } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import {
  AWS_ACCESS_TOKEN,
  AWS_CLIENT_SECRET,
  AWS_REFRESHED_ACCESS_TOKEN,
  AWS_USER_CODE,
  startMockAwsOidc,
} from "../helpers/mock_aws_oidc.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  type MockOAuth,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

function writeHome(mock: MockOAuth): string {
  const home = Deno.makeTempDirSync({ prefix: "gateway-connect-" });
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    `providers:
  - id: copilot
    prefix: cp
    api_type: device_oauth_assistant
    base_url: http://127.0.0.1:9
${mock.overridesYaml("    ")}  - id: codex
    prefix: cx
    api_type: responses_oauth
    base_url: http://127.0.0.1:9
${mock.overridesYaml("    ", "openai")}`,
  );
  return home;
}

/** Runs `providers connect <id>`; `answer` sees each stdout chunk and may write to the child's stdin. */
async function connect(
  home: string,
  id: string | string[],
  answer?: (printed: string, stdin: WritableStreamDefaultWriter<Uint8Array>) => Promise<void>,
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "providers", "connect", ...[id].flat()],
    env: { GATEWAY_HOME: home, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const stderr = new Response(child.stderr).text();
  let printed = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    printed += decoder.decode(chunk, { stream: true });
    await answer?.(printed, stdin);
  }
  await stdin.close().catch(() => {});
  const status = await child.status;
  return { code: status.code, out: printed, err: await stderr };
}

function storedKey(home: string, id: string): string {
  const paths = resolveHomePaths(undefined, { GATEWAY_HOME: home });
  const store = Store.openWithSecret(paths.dbPath, paths.secretKeyPath, undefined);
  try {
    return store.providers.list().find((p) => p.id === id)!.apiKey;
  } finally {
    store.close();
  }
}

/** The audit rows of provider changes: [action, target, actor kind]. */
function providerAudit(home: string): string[][] {
  const paths = resolveHomePaths(undefined, { GATEWAY_HOME: home });
  const store = Store.openWithSecret(paths.dbPath, paths.secretKeyPath, undefined);
  try {
    return store.audit.list({ action: "providers." }).map((r) => [r.action, r.target, r.actorKind]);
  } finally {
    store.close();
  }
}

function databaseBytes(home: string): string {
  const paths = resolveHomePaths(undefined, { GATEWAY_HOME: home });
  let text = "";
  for (const suffix of ["", "-wal"]) {
    try {
      text += new TextDecoder("latin1").decode(Deno.readFileSync(paths.dbPath + suffix));
    } catch { /* no WAL left */ }
  }
  return text;
}

Deno.test("providers connect: a device sign-in prints the code and link, waits, and stores the token sealed", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "ok");
  const home = writeHome(mock);
  try {
    const run = await connect(home, "copilot");
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.out, `Open ${mock.url}/login/device and enter the code:`);
    assertStringIncludes(run.out, "WDJB-MJHT");
    assertStringIncludes(run.out, "Connected copilot");
    assert(!run.out.includes(MOCK_ACCESS_TOKEN) && !run.err.includes(MOCK_ACCESS_TOKEN), "no token printed");
    assertEquals(JSON.parse(storedKey(home, "copilot")).access_token, MOCK_ACCESS_TOKEN);
    assertEquals(providerAudit(home), [["providers.connect", "providers:copilot", "cli"]]);
    assert(!databaseBytes(home).includes(MOCK_ACCESS_TOKEN), "the database (audit log too) holds no token");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: a PKCE sign-in prints the authorize URL and reads the pasted redirect, asking again after a wrong one", async () => {
  await using mock = await startMockOAuth();
  const home = writeHome(mock);
  try {
    let answered = false;
    const run = await connect(home, "codex", async (printed, stdin) => {
      const url = printed.match(/^\s+(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)$/m)?.[1];
      if (!url || answered || !printed.includes("press Enter")) return;
      answered = true;
      // The user signs in in a browser, which lands on the redirect URL; they paste a stale one first.
      const visit = await fetch(url, { redirect: "manual" });
      await visit.body?.cancel();
      const redirect = visit.headers.get("location")!;
      const encoder = new TextEncoder();
      await stdin.write(encoder.encode(`${redirect.replace(/state=[^&]+/, "state=stale")}\n`));
      await stdin.write(encoder.encode(`${redirect}\n`));
    });
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.err, "state does not match");
    assertStringIncludes(run.out, "Paste the address again");
    assertStringIncludes(run.out, "Connected codex");
    const stored = JSON.parse(storedKey(home, "codex"));
    assertEquals(stored.refresh_token, MOCK_REFRESH_TOKEN);
    assert(typeof stored.expires_at === "number");
    const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
    assertEquals(exchange.fields.client_id, "mock-client");
    assert(!run.out.includes(MOCK_REFRESH_TOKEN) && !run.err.includes(MOCK_REFRESH_TOKEN));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: a denied device sign-in exits 1 with the reason and stores nothing", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("access_denied");
  const home = writeHome(mock);
  try {
    const run = await connect(home, "copilot");
    assertEquals(run.code, 1);
    assertStringIncludes(run.err, "sign-in failed: The sign-in was denied");
    assertEquals(storedKey(home, "copilot"), "");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: a PKCE sign-in with nothing on standard input gives up with a usage error", async () => {
  await using mock = await startMockOAuth();
  const home = writeHome(mock);
  try {
    const run = await connect(home, "codex", async (_printed, stdin) => {
      await stdin.close().catch(() => {});
    });
    assertEquals(run.code, 2);
    assertStringIncludes(run.err, "no redirect address on standard input");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect --flow device: Codex's own device sign-in prints its code and stores the exchanged tokens", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("authorization_pending", "ok");
  const home = writeHome(mock);
  try {
    const run = await connect(home, ["codex", "--flow", "device"]);
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.out, "CODX-1234");
    assertStringIncludes(run.out, "Connected codex");
    assertEquals(JSON.parse(storedKey(home, "codex")).refresh_token, MOCK_REFRESH_TOKEN);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: a gateway already serving that database picks the credential up without a restart", async () => {
  await using mock = await startMockOAuth();
  mock.deviceSteps("ok");
  const home = writeHome(mock);
  const gw = await startTestGateway(Deno.readTextFileSync(`${home}/config.yaml`), {
    dir: home,
    watchIntervalMs: 100,
  });
  try {
    assertEquals(gw.runtime.control.providers.find((p) => p.id === "copilot")?.apiKey, "");
    const run = await connect(home, "copilot");
    assertEquals(run.code, 0, run.err);
    let seen = "";
    await waitFor(() => {
      seen = gw.runtime.control.providers.find((p) => p.id === "copilot")?.apiKey ?? "";
      return seen !== "";
    }, { what: "the running gateway to pick the credential up", intervalMs: 50 });
    assertEquals(JSON.parse(seen).access_token, MOCK_ACCESS_TOKEN);
  } finally {
    await gw.stop();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: Kiro signs in by the AWS device flow; the running gateway then refreshes it by OIDC and serves a request", async () => {
  await using oidc = await startMockAwsOidc();
  const kiro = await startMockUpstream();
  oidc.deviceSteps("authorization_pending", "slow_down", "ok");
  // Shorter than Kiro's five-minute refresh lead: the first request refreshes with the registered client.
  oidc.tokenLifetimeS = 60;
  const home = Deno.makeTempDirSync({ prefix: "gateway-connect-kiro-" });
  const yaml = `providers:
  - id: kiro
    prefix: kr
    api_type: cloud_assistant_oauth
    base_url: ${kiro.url}
    models: [claude-sonnet-4.5]
${oidc.overridesYaml("    ")}`;
  Deno.writeTextFileSync(`${home}/config.yaml`, yaml);
  const gw = await startTestGateway(yaml, { dir: home, watchIntervalMs: 100 });
  try {
    const run = await connect(home, "kiro");
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.out, `Open ${oidc.url}/device?user_code=${AWS_USER_CODE} and enter the code:`);
    assertStringIncludes(run.out, AWS_USER_CODE);
    assertStringIncludes(run.out, "Connected kiro");
    for (const secret of [AWS_ACCESS_TOKEN, AWS_CLIENT_SECRET]) {
      assert(!run.out.includes(secret) && !run.err.includes(secret), "nothing secret printed");
      assert(!databaseBytes(home).includes(secret), "stored sealed only");
    }
    assertEquals(JSON.parse(storedKey(home, "kiro")).extra.clientSecret, AWS_CLIENT_SECRET);
    await waitFor(() => (gw.runtime.control.providers.find((p) => p.id === "kiro")?.apiKey ?? "") !== "", {
      what: "the running gateway to pick the credential up",
      intervalMs: 50,
    });
    kiro.script({
      handler: () =>
        splitEventStream([
          kiroEvent("assistantResponseEvent", { content: "Hello from Kiro." }),
          kiroEvent("metricsEvent", { inputTokens: 5, outputTokens: 4 }),
        ], 7),
    });
    const response = await post(`${gw.url}/v1/chat/completions`, {
      model: "kr/claude-sonnet-4.5",
      messages: [{ role: "user", content: "hi" }],
    });
    const body = await response.json();
    assertEquals(response.status, 200, JSON.stringify(body));
    assertEquals(body.choices[0].message.content, "Hello from Kiro.");
    const refresh = oidc.requests.find((r) => r.body.grantType === "refresh_token");
    assert(refresh !== undefined, "refreshed at the OIDC token endpoint");
    assertEquals(refresh.body.clientSecret, AWS_CLIENT_SECRET);
    assertEquals(kiro.requests[0].headers.get("authorization"), `Bearer ${AWS_REFRESHED_ACCESS_TOKEN}`);
  } finally {
    await gw.stop();
    await kiro.close();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("providers connect: Google Cloud Code (cli_oauth) signs in by the pasted redirect with the configured client secret", async () => {
  await using mock = await startMockOAuth();
  const home = Deno.makeTempDirSync({ prefix: "gateway-connect-" });
  // Google's installed-app client secret is configuration, never code: the YAML names it.
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    `providers:
  - id: gemini-cli
    prefix: gc
    api_type: cli_oauth
    base_url: http://127.0.0.1:9
${mock.overridesYaml("    ")}      client_secret: mock-installed-app-secret
`,
  );
  try {
    let authorizeUrl: URL | undefined;
    const run = await connect(home, "gemini-cli", async (printed, stdin) => {
      const url = printed.match(/^\s+(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)$/m)?.[1];
      if (!url || authorizeUrl || !printed.includes("press Enter")) return;
      authorizeUrl = new URL(url);
      const visit = await fetch(url, { redirect: "manual" });
      await visit.body?.cancel();
      await stdin.write(new TextEncoder().encode(`${visit.headers.get("location")}\n`));
    });
    assertEquals(run.code, 0, run.err);
    assertStringIncludes(run.out, "Connected gemini-cli");
    assertEquals(authorizeUrl?.searchParams.get("client_id"), "mock-client");
    assertEquals(
      authorizeUrl?.searchParams.get("access_type"),
      "offline",
      "Google returns a refresh token only then",
    );
    const exchange = mock.requests.find((r) => r.path === "/oauth/token")!;
    assertEquals(exchange.fields.client_id, "mock-client");
    assertEquals(exchange.fields.client_secret, "mock-installed-app-secret");
    assertEquals(exchange.fields.grant_type, "authorization_code");
    const stored = JSON.parse(storedKey(home, "gemini-cli"));
    assertEquals([stored.access_token, stored.refresh_token], [MOCK_ACCESS_TOKEN, MOCK_REFRESH_TOKEN]);
    assert(!databaseBytes(home).includes(MOCK_REFRESH_TOKEN), "sealed in the database");
    assert(!run.out.includes(MOCK_REFRESH_TOKEN) && !run.err.includes(MOCK_REFRESH_TOKEN));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
