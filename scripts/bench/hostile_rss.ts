/**
 * Memory of the gateway against hostile upstreams: each case starts a fresh gateway process on a temp
 * home, points one provider at a hostile loopback mock (tests/helpers/hostile_upstream.ts), sends one
 * request, and reports the gateway's resident memory before and at its peak (VmHWM from /proc), the
 * status the client got and how long it waited for it.
 *
 *   deno run -A scripts/bench/hostile_rss.ts [--root <checkout>] [--limits '<yaml of limits: keys>']
 *
 * `--root` measures another checkout (an older commit in a worktree); `--limits` adds a `limits:`
 * section to the config (a checkout that predates it must be run without).
 */
import { type HostileMode, startHostileUpstream } from "../../tests/helpers/hostile_upstream.ts";
import { serverBundle } from "./bench_process.ts";

const args = Deno.args;
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const ROOT = flag("--root") ?? new URL("../../", import.meta.url).pathname;
const LIMITS = flag("--limits");
/** Longest a case waits for its answer; endless cases are cut here and reported as such. */
const CASE_MS = Number(flag("--case-seconds") ?? 20) * 1000;
const MIB = 1024 * 1024;

interface Case {
  readonly name: string;
  readonly mode: HostileMode;
  readonly stream: boolean;
}

const CASES: Case[] = [
  {
    name: "200 MiB JSON answer (content-length)",
    mode: { kind: "bigJson", bytes: 200 * MIB },
    stream: false,
  },
  {
    name: "200 MiB JSON answer (chunked)",
    mode: { kind: "bigJson", bytes: 200 * MIB, chunked: true },
    stream: false,
  },
  { name: "20 MiB SSE line without end", mode: { kind: "longLine", bytes: 20 * MIB }, stream: true },
  { name: "endless keep-alive comments", mode: { kind: "comments", everyMs: 50 }, stream: true },
  { name: "slow drip (a delta every 20 ms)", mode: { kind: "drip", everyMs: 20 }, stream: true },
  { name: "1 MiB response head", mode: { kind: "bigHead", bytes: MIB }, stream: false },
];

for (const c of CASES) console.log(await measure(c));

async function measure(c: Case): Promise<string> {
  const upstream = startHostileUpstream(c.mode);
  const home = Deno.makeTempDirSync({ prefix: "gateway-rss-" });
  const port = 18200 + Math.floor(Math.random() * 700);
  const limits = LIMITS ? `limits:\n${LIMITS.split(";").map((l) => `  ${l.trim()}`).join("\n")}\n` : "";
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    `providers:\n  - id: hostile\n    prefix: h\n    api_type: chat_compat\n    base_url: ${upstream.url}/v1\n` +
      `    api_key: k\n    models: [m1]\n${limits}`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      await serverBundle(ROOT),
      "serve",
      "--config",
      `${home}/config.yaml`,
      "--port",
      String(port),
    ],
    cwd: ROOT,
    env: { GATEWAY_SECRET_KEY: btoa(String.fromCharCode(...new Uint8Array(32))) },
    stdout: "null",
    stderr: "null",
  }).spawn();
  let line = "";
  try {
    await waitForHealth(port);
    const before = memory(child.pid);
    const started = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CASE_MS);
    let outcome: string;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "h/m1",
          stream: c.stream,
          messages: [{ role: "user", content: "hi" }],
        }),
        signal: controller.signal,
      });
      const headersAfter = Date.now() - started;
      let bytes = 0;
      let cut = "";
      try {
        for await (const chunk of response.body!) bytes += chunk.length;
      } catch (error) {
        cut = controller.signal.aborted ? ", cut by the script" : `, body broke: ${(error as Error).message}`;
      }
      outcome = `status ${response.status} after ${
        (headersAfter / 1000).toFixed(1)
      } s, ${bytes} body bytes${cut}`;
    } catch {
      outcome = `no response head within ${CASE_MS / 1000} s`;
    } finally {
      clearTimeout(timer);
    }
    const after = memory(child.pid);
    line = `${c.name}: RSS ${mib(before.rss)} → peak ${mib(after.peak)} (now ${mib(after.rss)}); ${outcome}`;
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await upstream.close();
    Deno.removeSync(home, { recursive: true });
  }
  return line;
}

async function waitForHealth(port: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/health`);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("gateway did not start");
}

/** Resident and peak resident memory of a process, in bytes. */
function memory(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(0)} MiB`;
}
