/**
 * The issue's two gaps to a bare proxy, measured side by side in one run: p50/p99 latency over one
 * connection (requests back to back, `wrk -c1 --latency`) for the bare Deno.serve+fetch proxy and the
 * gateway, in alternating rounds; and each server's resident memory after load (VmRSS, and its peak
 * VmHWM, from /proc/<pid>/status) after 50 connections for a few seconds. Servers run on CPU 0, wrk and
 * the mock upstream on CPU 1.
 *
 * Gateways are started once per variant: `default` is `gateway serve` as users run it (with the heap
 * flags of src/cli/v8_flags.ts); a variant given as `name=--flag,--flag` in BENCH_GATEWAY_VARIANTS runs
 * `deno run --v8-flags=<flags>` instead, to compare heap settings in the same run (e.g.
 * `BENCH_GATEWAY_VARIANTS="v8-defaults=;semi2=--max-semi-space-size=2"`; no flags is V8's defaults). With
 * BENCH_BASELINE_DIR set to another checkout (say `git archive` of the previous commit, with node_modules
 * and ui/dist linked in), a `gateway baseline` from there runs beside them: before and after a change.
 * Usage: deno run -A scripts/bench/latency_rss.ts [rounds=5] [round seconds=4]
 */
import { join } from "node:path";
import { median, processCpuMs, serverBundle, waitReady, wrkPost } from "./bench_process.ts";
import { MALLOC_ENV } from "../../src/cli/malloc_env.ts";
import { V8_HEAP_FLAGS } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ROUNDS = Number(Deno.args[0] ?? 5);
const ROUND_SECONDS = Number(Deno.args[1] ?? 4);
/** The load before memory is read: 50 connections for this long. */
const LOAD_SECONDS = 5;
/** Each round also measures one connection from this process's own client, for this long. */
const JS_SECONDS = 3;
/** Each round also measures throughput (50 connections), so a heap setting that saves memory shows its cost. */
const THROUGHPUT_SECONDS = 2;
const PORT_BASE = 18140;
const BODY = JSON.stringify({
  model: "bench/m1",
  messages: [{ role: "user", content: "Say hello." }],
  max_tokens: 64,
});

const children: Deno.ChildProcess[] = [];

function spawnPinned(
  cpu: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
): Deno.ChildProcess {
  const child = new Deno.Command("taskset", {
    args: ["-c", cpu, Deno.execPath(), ...args],
    cwd,
    stdout: "null",
    stderr: "inherit",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
  children.push(child);
  return child;
}

/** A wrk run pinned to CPU 1; `--latency` gives the percentiles of every request (wrk measures them all). */
async function wrk(url: string, connections: number, seconds: number) {
  const text = await wrkPost(url, BODY, ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency"], {
    cpu: "1",
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!rps) throw new Error(`wrk failed: ${text}`);
  if (/Non-2xx/.test(text)) console.error(`  warning: non-2xx answers from ${url}`);
  const ms = (label: string) => {
    const match = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(text);
    if (!match) throw new Error(`no ${label}% in wrk output: ${text}`);
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
  return { rps: Number(rps[1]), requests, p50: ms("50"), p99: ms("99") };
}

/**
 * A second load generator for one connection: requests back to back from this process (fetch keeps one
 * connection), each latency kept with the gateway's own `x-gateway-overhead-ms`. wrk and this client
 * disagree by several ms at p99 on this machine (both share CPU 1 with the mock upstream), so both are
 * reported; the overhead of the slowest 1 % says whether the gateway's own work is what makes them slow.
 */
async function oneConnection(url: string, seconds: number) {
  const rows: { ms: number; overhead: number }[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: BODY,
    });
    await response.arrayBuffer();
    rows.push({
      ms: performance.now() - start,
      overhead: Number(response.headers.get("x-gateway-overhead-ms") ?? 0),
    });
  }
  rows.sort((a, b) => a.ms - b.ms);
  const slowest = rows.slice(Math.floor(rows.length * 0.99));
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
  return {
    p50: rows[Math.floor(rows.length * 0.5)].ms,
    p99: rows[Math.floor(rows.length * 0.99)].ms,
    slowestMs: mean(slowest.map((r) => r.ms)),
    slowestOverhead: mean(slowest.map((r) => r.overhead)),
  };
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

interface Target {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  readonly p50: number[];
  readonly p99: number[];
  /** Requests per second over one connection. */
  readonly rps: number[];
  /** Requests per second over 50 connections. */
  readonly rps50: number[];
  /** The server's CPU time per request at 50 connections, µs (steadier than req/s on a shared machine). */
  readonly cpuUs: number[];
  /** The same over one connection from this process (`oneConnection`). */
  readonly js: Awaited<ReturnType<typeof oneConnection>>[];
}

/** Runs the measurements and prints them (run.ts calls it as part of `deno task bench`). */
export async function benchLatencyRss(rounds = ROUNDS, roundSeconds = ROUND_SECONDS): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "gateway-bench-latency-" });
  const mockPort = PORT_BASE + 1;
  const config = join(home, "config.yaml");
  await Deno.writeTextFile(
    config,
    `server:\n  require_api_key: false\nproviders:\n  - id: bench-1\n    prefix: bench\n    api_type: chat_compat\n` +
      `    base_url: http://127.0.0.1:${mockPort}/v1\n    models: [m1]\n`,
  );
  spawnPinned("1", ["run", "-A", "scripts/bench/mock_upstream.ts", String(mockPort)]);
  const bare = spawnPinned("0", [
    "run",
    "-A",
    "scripts/bench/bare_proxy.ts",
    String(PORT_BASE + 2),
    `http://127.0.0.1:${mockPort}`,
  ]);
  // `name=--flag,--flag|ENV=value` each; `default` is `gateway serve` as users run it.
  // The default runs as `deno task serve` does: its heap flags and its allocator setting (malloc_env.ts).
  const variants: [string, string[], Record<string, string>][] = [["default", [...V8_HEAP_FLAGS], {
    ...MALLOC_ENV,
  }]];
  for (const spec of (Deno.env.get("BENCH_GATEWAY_VARIANTS") ?? "").split(";").filter(Boolean)) {
    const at = spec.indexOf("=");
    const [flags, ...envs] = (at === -1 ? "" : spec.slice(at + 1)).split("|");
    const env = Object.fromEntries(
      envs.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]),
    );
    variants.push([at === -1 ? spec : spec.slice(0, at), flags.split(",").filter(Boolean), env]);
  }
  const target = (name: string, port: number, pid: number): Target => ({
    name,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    pid,
    p50: [],
    p99: [],
    rps: [],
    rps50: [],
    cpuUs: [],
    js: [],
  });
  const targets: Target[] = [target("bare proxy", PORT_BASE + 2, bare.pid)];
  const baseline = Deno.env.get("BENCH_BASELINE_DIR");
  const roots = variants.map(() => ROOT);
  if (baseline) {
    variants.push(["baseline", [], {}]);
    roots.push(baseline);
  }
  for (const [i, [name, flags, env]] of variants.entries()) {
    const port = PORT_BASE + 3 + i;
    // Each gateway its own home: a database per process, as a user would run them.
    const dir = join(home, `gw-${i}`);
    Deno.mkdirSync(dir);
    // The database and secret key live beside the config file.
    Deno.copyFileSync(config, join(dir, "config.yaml"));
    const v8 = flags.length > 0 ? [`--v8-flags=${flags.join(",")}`] : [];
    const child = spawnPinned(
      "0",
      [
        "run",
        "-A",
        ...v8,
        await serverBundle(roots[i]),
        "serve",
        "--config",
        join(dir, "config.yaml"),
        "--port",
        String(port),
      ],
      { GATEWAY_HOME: dir, ...env },
      roots[i],
    );
    targets.push(target(`gateway ${name}`, port, child.pid));
  }
  try {
    await Promise.all(targets.map((t) => waitReady(t.url, BODY)));
    const idle = targets.map((t) => memoryMb(t.pid));
    // Load: the RSS a server keeps after serving 50 connections (and V8's warm-up for the gateways).
    const after: { rss: number; peak: number }[] = [];
    const loadRps: number[] = [];
    for (const t of targets) {
      loadRps.push((await wrk(t.url, 50, LOAD_SECONDS)).rps);
      // Read at once: an idle V8 shrinks its young generation within seconds.
      after.push(memoryMb(t.pid));
    }
    for (let round = 0; round < rounds; round++) {
      // Alternating order, so the machine's drift hits every server alike.
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const result = await wrk(t.url, 1, roundSeconds);
        t.p50.push(result.p50);
        t.p99.push(result.p99);
        t.rps.push(result.rps);
        t.js.push(await oneConnection(t.url, JS_SECONDS));
        const cpuBefore = processCpuMs(t.pid);
        const loaded = await wrk(t.url, 50, THROUGHPUT_SECONDS);
        t.rps50.push(loaded.rps);
        t.cpuUs.push(((processCpuMs(t.pid) - cpuBefore) * 1000) / loaded.requests);
      }
    }
    const end = targets.map((t) => memoryMb(t.pid));
    const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
    console.log(
      `One connection, requests back to back (wrk -c1 --latency, ${rounds} alternating ${roundSeconds} s rounds, ` +
        `each followed by ${THROUGHPUT_SECONDS} s at 50 connections; load average ${load}, ${
          new Date().toISOString()
        }):`,
    );
    const bareT = targets[0];
    for (const t of targets) {
      const gaps = t.p99.map((p, i) => p - bareT.p99[i]);
      console.log(
        `  ${t.name.padEnd(22)} p50 ${median(t.p50).toFixed(2)} ms, p99 ${
          median(t.p99).toFixed(2)
        } ms (rounds: ${t.p99.map((v) => v.toFixed(1)).join(", ")}), ${
          median(t.rps).toFixed(0)
        } req/s; at 50 connections ${median(t.rps50).toFixed(0)} req/s, ${
          median(t.cpuUs).toFixed(0)
        } µs CPU per request` +
          (t === bareT
            ? ""
            : `; p99 beyond the bare proxy's ${median(gaps).toFixed(2)} ms (goal ≤ 2 ms: ${
              median(gaps) <= 2 ? "met" : "not met"
            })`),
      );
    }
    console.log(`One connection from this process's fetch client (${JS_SECONDS} s per round, same rounds):`);
    for (const t of targets) {
      const p99 = median(t.js.map((j) => j.p99));
      const gaps = t.js.map((j, i) => j.p99 - bareT.js[i].p99);
      console.log(
        `  ${t.name.padEnd(22)} p50 ${median(t.js.map((j) => j.p50)).toFixed(2)} ms, p99 ${
          p99.toFixed(2)
        } ms` +
          (t === bareT
            ? ""
            : `; p99 beyond the bare proxy's ${median(gaps).toFixed(2)} ms (goal ≤ 2 ms: ${
              median(gaps) <= 2 ? "met" : "not met"
            }); the slowest 1 % took ${
              median(t.js.map((j) => j.slowestMs)).toFixed(2)
            } ms, of which the gateway's ` +
              `own work (x-gateway-overhead-ms) ${median(t.js.map((j) => j.slowestOverhead)).toFixed(2)} ms`),
      );
    }
    console.log(
      `Memory (VmRSS from /proc/<pid>/status, read as ${LOAD_SECONDS} s of wrk -c50 ends; peak is VmHWM; and at the end):`,
    );
    targets.forEach((t, i) => {
      const gateway = t !== bareT;
      console.log(
        `  ${t.name.padEnd(22)} idle ${idle[i].rss.toFixed(0)} MB, after load ${
          after[i].rss.toFixed(0)
        } MB (peak ${after[i].peak.toFixed(0)} MB, at ${loadRps[i].toFixed(0)} req/s), at the end ${
          end[i].rss.toFixed(0)
        } MB` +
          (gateway ? ` (goal ≤ 150 MB after load: ${after[i].rss <= 150 ? "met" : "not met"})` : ""),
      );
    });
  } finally {
    for (const child of children) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
    }
    await Promise.allSettled(children.map((c) => c.status));
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) {
  // Like run.ts: this process (the fetch client) on CPU 1, with wrk and the mock; the servers on CPU 0.
  await new Deno.Command("taskset", { args: ["-apc", "1", String(Deno.pid)], stdout: "null" }).output();
  await benchLatencyRss();
}
