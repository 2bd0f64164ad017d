/**
 * The server bundle (scripts/build_server.ts) is what `deno task serve` and the release binary run, while
 * the rest of the suite runs the sources: this starts the bundle as a user would and goes through every
 * place where code finds a file by its own URL (migrations, the JSON parse worker, the token count worker,
 * the dashboard bundle), through the CommonJS packages it carries (the YAML config) and through the CLI.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { join } from "node:path";
import { buildServer } from "../../scripts/build_server.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { type ServeProcess, startServeProcess } from "../helpers/serve_process.ts";
import { BIG_BODY_BYTES } from "../../src/http/body_lane.ts";

const ROOT = new URL("../../", import.meta.url);

async function run(bundle: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", bundle, ...args],
    env: { NO_COLOR: "1", ...env },
  }).output();
  return { code: output.code, out: new TextDecoder().decode(output.stdout).trim() };
}

Deno.test("server bundle: one module whose CLI creates a key and whose two workers answer chat, parses a big body on its worker, counts tokens on its worker, migrates and serves the dashboard", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gateway-bundle-" });
  // Inside the checkout, as dist/server/main.js is: the workers it starts from source resolve their npm
  // imports through the checkout's deno.json. A directory of its own keeps it clear of other runs' bundle.
  const out = new URL(`dist/bundle-test-${Deno.pid}/`, ROOT).pathname;
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("from the bundle") });
  let serving: ServeProcess | null = null;
  try {
    const bundle = join(out, "main.js");
    // Everything but the runtime's built-ins is inside: no module of the checkout or npm is loaded by path.
    const external = await buildServer(ROOT, bundle);
    assert(external.includes("node:sqlite"), external.join(", "));
    assertEquals(external.filter((spec) => !spec.startsWith("node:")), []);

    const sources = await run("main.ts", ["--version"]);
    assertEquals((await run(bundle, ["--version"])).out, sources.out);

    const home = join(dir, "home");
    await Deno.mkdir(home);
    await Deno.writeTextFile(
      join(home, "config.yaml"),
      chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }], QUIET_KEY_CHECKS),
    );
    // The CLI from the bundle too: a key for the dashboard (created before the gateway opens the database).
    const created = await run(bundle, ["keys", "create", "--name", "bundle"], { GATEWAY_HOME: home });
    assertEquals(created.code, 0, created.out);
    const key = /sk-gateway-[\w-]+/.exec(created.out)?.[0];
    assert(key !== undefined, created.out);
    const auth = { authorization: `Bearer ${key}` };
    // Two workers: the supervisor starts each from the bundle it runs (Deno.mainModule).
    serving = await startServeProcess([bundle, "serve", "--workers", "2", "--port", "0"], {
      GATEWAY_HOME: home,
    });
    const base = serving.url;
    const chat = (content: string) =>
      fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content }] }),
      });

    const small = await chat("hi");
    assertEquals((await small.json()).choices[0].message.content, "from the bundle");

    // A body over the big-body threshold is parsed by src/http/json_parse_worker.ts, found by URL.
    const bigText = "x".repeat(BIG_BODY_BYTES + 1024);
    const big = await chat(bigText);
    assertEquals(big.status, 200, await big.clone().text());
    assertEquals((await big.json()).choices[0].message.content, "from the bundle");
    assertEquals((mock.requests.at(-1)?.body.messages as { content: string }[])[0].content, bigText);

    // Anthropic count_tokens for a chat upstream is estimated by src/gateway/token_count_worker.ts.
    const counted = await fetch(`${base}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "count these few words" }] }),
    });
    const tokens = await counted.json();
    assertEquals(counted.status, 200, JSON.stringify(tokens));
    assert(tokens.input_tokens > 0 && tokens.input_tokens < 50, JSON.stringify(tokens));

    // ui/dist, found relative to src/http/ui_assets.ts.
    const page = await fetch(`${base}/dashboard/ui/`, { headers: auth });
    assertEquals(page.status, 200);
    assertStringIncludes(await page.text(), "<script");
  } finally {
    await serving?.[Symbol.asyncDispose]();
    await mock.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
});
