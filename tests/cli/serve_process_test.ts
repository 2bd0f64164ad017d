/**
 * The README's start command as a user runs it: `main.ts serve` in a child process, on a fresh home.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { cli } from "../helpers/cli.ts";
import { chatProvidersYaml, QUIET_KEY_CHECKS } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Starts `gateway serve` with a fresh home; resolves once it prints where it listens. */
async function startServe(home: string, port: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--port", String(port)],
    env: { GATEWAY_HOME: home, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("Database:")) {
    const { value, done } = await stdout.read();
    if (done) break;
    printed += value;
  }
  const rest = (async () => {
    for (let r = await stdout.read(); !r.done; r = await stdout.read()) printed += r.value;
    return printed;
  })();
  return { child, printed: () => printed, output: rest };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("serve: a fresh home gets a default config, answers on its port and stops cleanly on SIGTERM", async () => {
  const home = await Deno.makeTempDir({ prefix: "gateway-serve-" });
  const port = freePort();
  const gateway = await startServe(home, port);
  try {
    assertStringIncludes(gateway.printed(), `Wrote default config to ${join(home, "config.yaml")}`);
    assertStringIncludes(gateway.printed(), `gateway listening on http://127.0.0.1:${port}`);
    const response = await fetch(`http://127.0.0.1:${port}/v1/models`);
    await response.body?.cancel();
    assert(response.status === 200 || response.status === 401, `status ${response.status}`);

    // A second gateway on the same port explains itself in one line: no stack trace.
    const second = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "serve", "--port", String(port)],
      env: { GATEWAY_HOME: home, NO_COLOR: "1" },
    }).output();
    const err = new TextDecoder().decode(second.stderr).trim();
    assertEquals(second.code, 1);
    assertEquals(
      err,
      `error: cannot listen on 127.0.0.1:${port}: the port is in use (another gateway running? pick one with --port)`,
    );

    // doctor checks the address this gateway serves (--port), not the file's default 20128.
    const doctor = await cli(["doctor", "--json", "--timeout", "1"], { GATEWAY_HOME: home, HOME: home });
    const findings =
      (JSON.parse(doctor.out[0]) as { findings: { area: string; message: string }[] }).findings;
    const served = findings.filter((f) => f.area === "port").map((f) => f.message);
    assertEquals(served.length, 1, JSON.stringify(served));
    assertStringIncludes(
      served[0],
      `127.0.0.1:${port} is served by the running gateway (process ${gateway.child.pid}`,
    );
  } finally {
    gateway.child.kill("SIGTERM");
    const status = await gateway.child.status;
    await gateway.child.stderr.cancel();
    const output = await gateway.output;
    assertEquals(status.code, 0, output);
    assertStringIncludes(output, "Stopped.");
    // A clean stop takes the address record with it.
    assertEquals(await Deno.stat(join(home, "listening.json")).then(() => true, () => false), false);
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: a database file that is not SQLite stops the start with one line naming the file", async () => {
  const home = await Deno.makeTempDir({ prefix: "gateway-serve-" });
  try {
    const db = join(home, "gateway.db");
    await Deno.writeTextFile(db, "this is not a database, but it is the user's file\n".repeat(100));
    const result = await cli(["serve", "--port", "0"], { GATEWAY_HOME: home });
    assertEquals(result.code, 1);
    assertEquals(result.err, [`error: cannot open the database ${db}: file is not a database`]);
    // Nothing overwrote the file.
    assertStringIncludes(await Deno.readTextFile(db), "it is the user's file");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: a second SIGTERM during a drain stops at once and still writes the queued usage rows", async () => {
  const mock = await startMockUpstream();
  // The first request is answered; the second hangs so the drain after SIGTERM cannot finish by itself.
  mock.script({ json: chatCompletion("answered") }, { hang: true });
  const home = await Deno.makeTempDir({ prefix: "gateway-serve-" });
  await Deno.writeTextFile(
    join(home, "config.yaml"),
    chatProvidersYaml(
      [{ id: "acct-a", prefix: "p", url: mock.url }],
      "server:\n  drain_timeout_s: 600\n" + QUIET_KEY_CHECKS,
    ),
  );
  const port = freePort();
  const gateway = await startServe(home, port);
  const ask = () =>
    fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] }),
    });
  try {
    assertEquals((await (await ask()).json()).choices[0].message.content, "answered");
    const hanging = ask().then((r) => r.body?.cancel(), () => {});
    // Wait until the gateway holds the hanging call, then ask it to stop and wait for it to start draining.
    await waitFor(() => mock.requests.length >= 2, { what: "the hanging call at the upstream" });
    gateway.child.kill("SIGTERM");
    await waitFor(() => gateway.printed().includes("Shutting down"), {
      what: "the gateway to start draining",
    });
    gateway.child.kill("SIGTERM");
    const status = await gateway.child.status;
    await gateway.child.stderr.cancel();
    const output = await gateway.output;
    await hanging;
    assertEquals(status.code, 1, output);
    assertStringIncludes(output, "Second signal: writing queued rows and stopping now.");
    const db = new DatabaseSync(join(home, "gateway.db"));
    try {
      const rows = db.prepare("SELECT status FROM usage").all() as { status: number }[];
      assert(
        rows.some((r) => r.status === 200),
        `the answered request's row is stored: ${JSON.stringify(rows)}`,
      );
    } finally {
      db.close();
    }
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
