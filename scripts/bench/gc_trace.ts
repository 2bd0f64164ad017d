/**
 * What the garbage collector does per request, which wall-clock numbers on a shared machine cannot show
 * steadily: the gateway runs under V8's --trace-gc while wrk drives it (50 connections, CPU 1), and the
 * trace gives the bytes allocated and promoted to the old generation per request, the scavenge pauses,
 * and the most heap V8 committed. With BENCH_BASELINE_DIR (another checkout, as in latency_rss.ts) the
 * same runs for it in alternating rounds: before and after a change. The bare proxy runs too.
 * Usage: deno run -A scripts/bench/gc_trace.ts [rounds=2] [seconds=5]
 */
import { join } from "node:path";
import { serverBundle, waitReady, wrkPost } from "./bench_process.ts";
import { V8_HEAP_FLAGS } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ROUNDS = Number(Deno.args[0] ?? 2);
const SECONDS = Number(Deno.args[1] ?? 5);
const PORT_BASE = 18180;
const BODY = JSON.stringify({ model: "bench/m1", messages: [{ role: "user", content: "Say hello." }] });

interface Traced {
  readonly name: string;
  readonly url: string;
  readonly child: Deno.ChildProcess;
  readonly trace: Promise<string>;
  requests: number;
}

function start(
  name: string,
  cwd: string,
  args: string[],
  port: number,
  v8Flags: readonly string[] = [],
): Traced {
  const child = new Deno.Command("taskset", {
    args: [
      "-c",
      "0",
      Deno.execPath(),
      "run",
      "-A",
      `--v8-flags=${["--trace-gc", ...v8Flags].join(",")}`,
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  return {
    name,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    child,
    trace: new Response(child.stdout).text(),
    requests: 0,
  };
}

async function wrk(url: string, seconds: number): Promise<number> {
  const text = await wrkPost(url, BODY, ["-t1", "-c50", `-d${seconds}s`], { cpu: "1" });
  const requests = /(\d+) requests in/.exec(text);
  if (!requests) throw new Error(`wrk failed: ${text}`);
  return Number(requests[1]);
}

/** One --trace-gc line: kind, heap used before → after (MB), committed after (MB), pause (ms). */
const LINE =
  /(Scavenge|Mark-Compact|Mark-Sweep)[^\n]*? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, pooled: [\d.]+ MB, ([\d.]+) \/ [\d.]+ ms/g;

function summarize(trace: string, requests: number): string {
  const scavenges: { before: number; after: number; pause: number }[] = [];
  let majors = 0;
  let committed = 0;
  for (const m of trace.matchAll(LINE)) {
    committed = Math.max(committed, Number(m[5]));
    if (m[1] === "Scavenge") {
      scavenges.push({ before: Number(m[2]), after: Number(m[4]), pause: Number(m[6]) });
    } else majors++;
  }
  const freed = scavenges.reduce((sum, s) => sum + s.before - s.after, 0);
  // What a scavenge leaves in use beyond the previous one's is what it promoted (or kept young).
  let promoted = 0;
  for (let i = 1; i < scavenges.length; i++) {
    promoted += Math.max(0, scavenges[i].after - scavenges[i - 1].after);
  }
  const pauses = scavenges.map((s) => s.pause).sort((a, b) => a - b);
  const kb = (mb: number) => ((mb * 1024) / requests).toFixed(2);
  return `${kb(freed)} KB allocated and ${
    kb(promoted)
  } KB promoted per request; ${scavenges.length} scavenges ` +
    `(pause p50 ${pauses[Math.floor(pauses.length / 2)]?.toFixed(2)} ms, max ${
      pauses.at(-1)?.toFixed(2)
    } ms), ` +
    `${majors} full GCs; most heap committed ${committed.toFixed(0)} MB`;
}

const home = await Deno.makeTempDir({ prefix: "gateway-bench-gc-" });
const mockPort = PORT_BASE + 1;
const mock = new Deno.Command("taskset", {
  args: ["-c", "1", Deno.execPath(), "run", "-A", "scripts/bench/mock_upstream.ts", String(mockPort)],
  cwd: ROOT,
  stdout: "null",
}).spawn();
const targets: Traced[] = [];
try {
  const roots: [string, string][] = [["gateway", ROOT]];
  const baseline = Deno.env.get("BENCH_BASELINE_DIR");
  if (baseline) roots.push(["gateway baseline", baseline]);
  for (const [i, [name, root]] of roots.entries()) {
    const dir = join(home, `gw-${i}`);
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(
      join(dir, "config.yaml"),
      `server:\n  require_api_key: false\nproviders:\n  - id: bench-1\n    prefix: bench\n    api_type: chat_compat\n` +
        `    base_url: http://127.0.0.1:${mockPort}/v1\n    models: [m1]\n`,
    );
    const port = PORT_BASE + 2 + i;
    targets.push(
      start(
        name,
        root,
        [await serverBundle(root), "serve", "--config", join(dir, "config.yaml"), "--port", String(port)],
        port,
        // This checkout's gateway as `serve` runs it; a baseline checkout as it ran then.
        root === ROOT ? V8_HEAP_FLAGS : [],
      ),
    );
  }
  const barePort = PORT_BASE + 9;
  targets.push(
    start("bare proxy", ROOT, [
      "scripts/bench/bare_proxy.ts",
      String(barePort),
      `http://127.0.0.1:${mockPort}`,
    ], barePort),
  );
  await Promise.all(targets.map((t) => waitReady(t.url, BODY)));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
      t.requests += await wrk(t.url, SECONDS);
    }
  }
} finally {
  for (const t of targets) t.child.kill("SIGTERM");
  mock.kill("SIGTERM");
  await Promise.allSettled([...targets.map((t) => t.child.status), mock.status]);
}
const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(
  `Garbage collection under load (--trace-gc, wrk -c50, ${ROUNDS} alternating ${SECONDS} s rounds; load average ${load}):`,
);
for (const t of targets) console.log(`  ${t.name.padEnd(17)} ${summarize(await t.trace, t.requests)}`);
await Deno.remove(home, { recursive: true });
