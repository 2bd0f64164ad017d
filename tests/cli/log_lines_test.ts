/**
 * Log lines: one line per event with its level, credentials redacted, and journald priorities when the
 * journal is listening, for the runtime's own events and for what `gateway serve` prints.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { logLine } from "../../src/log.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

Deno.test("logLine: level first, one line, credential shapes redacted, 'gateway: ' dropped", () => {
  const line = logLine(
    "error",
    "gateway: upstream said\nIncorrect API key provided: sk-proj1234567890abcdef",
    false,
  );
  assertEquals(line, "error: upstream said\\nIncorrect API key provided: [redacted]");
  assertEquals(logLine("warn", "saver rtk failed", true), "<4>warn: saver rtk failed");
  assertEquals(
    logLine("info", "gateway listening on http://127.0.0.1:1", true),
    "<6>info: gateway listening on http://127.0.0.1:1",
  );
  // A line a worker already formatted passes through its supervisor unchanged.
  assertEquals(logLine("info", "<3>error: worker failed", true), "<3>error: worker failed");
});

Deno.test("gateway serve under journald: every line it prints is one event with a syslog priority", async () => {
  const home = await Deno.makeTempDir({ prefix: "gateway-log-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "serve", "--port", "0"],
    env: { GATEWAY_HOME: home, NO_COLOR: "1", JOURNAL_STREAM: "8:12345" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let printed = "";
    while (!printed.includes("Database:")) {
      const { value, done } = await reader.read();
      if (done) break;
      printed += value;
    }
    // Once it answers, its signal handlers are installed (they are set up right after the banner).
    const url = /listening on (http:\/\/\S+)/.exec(printed)![1];
    await (await fetch(`${url}/v1/health`)).body?.cancel();
    child.kill("SIGTERM");
    for (let r = await reader.read(); !r.done; r = await reader.read()) printed += r.value;
    const status = await child.status;
    assertEquals(status.code, 0, printed);
    const lines = printed.trim().split("\n");
    assert(lines.length >= 6, printed);
    for (const line of lines) assert(/^<6>info: .*\S/.test(line), `not an info event: ${line}`);
    assert(lines.some((l) => l.startsWith("<6>info: gateway listening on http://127.0.0.1:")));
    assertEquals(lines.at(-1), "<6>info: Stopped.");
  } finally {
    await child.stderr.cancel();
    await Deno.remove(home, { recursive: true });
  }
});
