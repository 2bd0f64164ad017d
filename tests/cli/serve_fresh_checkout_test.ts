/**
 * `gateway serve` from a fresh checkout (no ui/dist, which git ignores) answers the dashboard: the UI is
 * built on demand. Runs the real CLI in a child process on a copy of the sources.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";

const REPO = new URL("../../", import.meta.url);
const ADMIN_KEY = "static-admin-key-1234567890";
/** What a checkout holds that `serve` and the UI build read; ui/ is copied without its dist folder. */
const CHECKOUT = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "src",
  "migrations",
  "scripts",
  "ui/index.html",
  "ui/src",
];

async function copyCheckout(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gateway-checkout-" });
  await Deno.mkdir(`${dir}/ui`);
  for (const path of CHECKOUT) {
    const copy = await new Deno.Command("cp", {
      args: ["-R", new URL(path, REPO).pathname, `${dir}/${path}`],
    })
      .output();
    assertEquals(copy.code, 0, new TextDecoder().decode(copy.stderr));
  }
  // The npm packages are installed already; the copy uses them instead of fetching its own.
  await Deno.symlink(new URL("node_modules", REPO).pathname, `${dir}/node_modules`);
  return dir;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test({
  name: "serve: a fresh checkout without ui/dist builds the dashboard on demand and serves it (not 503)",
  sanitizeResources: false,
  fn: async () => {
    const dir = await copyCheckout();
    const home = `${dir}/home`;
    const port = freePort();
    await Deno.mkdir(home);
    await Deno.writeTextFile(
      `${home}/config.yaml`,
      `server:\n  host: 127.0.0.1\n  port: ${port}\napi_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts", "serve", "--port", String(port)],
      cwd: dir,
      env: { GATEWAY_HOME: home, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000); // a hung start fails, not stalls the suite
    const stderr = new Response(child.stderr).text();
    try {
      const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let printed = "";
      while (!printed.includes("gateway listening on")) {
        const { value, done } = await stdout.read();
        if (done) break;
        printed += value;
      }
      void stdout.cancel();
      assertStringIncludes(printed, `gateway listening on http://127.0.0.1:${port}`);
      const headers = { authorization: `Bearer ${ADMIN_KEY}` };
      const page = await fetch(`http://127.0.0.1:${port}/dashboard/ui`, { headers });
      const html = await page.text();
      assertEquals(page.status, 200, html);
      assertStringIncludes(html, "<gw-app>");
      const app = await fetch(`http://127.0.0.1:${port}/dashboard/ui/app.js`, { headers });
      const js = await app.text();
      assertEquals(app.status, 200);
      assert(js.includes("gw-provider-card"), "the served bundle is the dashboard app");
      const built = JSON.parse(await Deno.readTextFile(`${dir}/ui/dist/.build.json`));
      assert(built.inputs.includes("ui/src/main.ts"), "the build records its sources");
    } finally {
      clearTimeout(timer);
      child.kill("SIGTERM");
      await child.status;
      await stderr;
      await Deno.remove(dir, { recursive: true });
    }
  },
});
