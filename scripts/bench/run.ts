/**
 * `deno task bench`: the mock upstream, a bare Deno.serve+fetch proxy and the gateway, measured side by
 * side in one run on loopback. Servers are pinned to CPU 0; the load generators run on CPU 1.
 *
 * Reports: non-stream requests/s (wrk, 50 connections) for direct/bare-proxy/gateway/Portkey (peer, when
 * npm can install it) and the ratios,
 * added p50/p99 latency at a fixed 500 requests/s, and gateway CPU per streamed chunk (passthrough and
 * translate), and CPU per chunk of streams sent one write per chunk against the bare proxy and a JS
 * pass-through floor. Bounded in time: about four minutes.
 */
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const PORTS = {
  mock: 18101,
  bare: 18102,
  gateway: 18103,
  portkey: 18104,
  bareSpaced: 18105,
  jsSpaced: 18106,
};
const WRK_SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
/**
 * Load before measuring. The gateway has far more code than the bare proxy, and V8 keeps optimizing it
 * for about 30 k requests (10–15 s here); rounds measured before that count compiler work (which runs on
 * V8's worker threads, on the same core) as request cost: the ratio read 55 % then, 62–65 % after.
 */
const WARMUP_SECONDS = Number(Deno.env.get("BENCH_WARMUP_SECONDS") ?? 15);
const CHAT_BODY = JSON.stringify({
  model: "bench/m1",
  messages: [{ role: "user", content: "Say hello." }],
  max_tokens: 64,
});
const CHAT_STREAM_BODY = JSON.stringify({
  model: "bench/m1",
  stream: true,
  messages: [{ role: "user", content: "Say hello." }],
  max_tokens: 64,
});
const SPACED_STREAM_BODY = CHAT_STREAM_BODY.replace("bench/m1", "spaced/m1");
const MESSAGES_STREAM_BODY = JSON.stringify({
  model: "bench/m1",
  stream: true,
  max_tokens: 64,
  messages: [{ role: "user", content: "Say hello." }],
});

const children: Deno.ChildProcess[] = [];

function spawnPinned(cpu: string, args: string[]): Deno.ChildProcess {
  const child = new Deno.Command("taskset", {
    args: ["-c", cpu, Deno.execPath(), ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  children.push(child);
  return child;
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await (await fetch(url, { method: "POST", body: CHAT_BODY })).body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start`);
}

async function wrk(
  url: string,
  { headers = {}, body = CHAT_BODY, seconds = WRK_SECONDS }: {
    headers?: Record<string, string>;
    body?: string;
    seconds?: number;
  } = {},
): Promise<number> {
  const lua = await Deno.makeTempFile({ suffix: ".lua" });
  const lines = [
    `wrk.method = "POST"`,
    `wrk.body = ${JSON.stringify(body)}`,
    `wrk.headers["Content-Type"] = "application/json"`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  }
  await Deno.writeTextFile(lua, lines.join("\n") + "\n");
  const output = await new Deno.Command("taskset", {
    args: ["-c", "1", "wrk", "-t1", "-c50", `-d${seconds}s`, "-s", lua, url],
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!match) throw new Error(`wrk failed: ${text}${new TextDecoder().decode(output.stderr)}`);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (errors) console.error(`  warning: ${errors[1]} non-2xx responses from ${url}`);
  return Number(match[1]);
}

/** Sends `rps` requests per second for `seconds`, returning each latency in ms. */
async function fixedRate(url: string, rps: number, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = rps * seconds;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rps;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push((async () => {
      const t0 = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: CHAT_BODY,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
    })());
  }
  await Promise.all(pending);
  return latencies.sort((a, b) => a - b);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** Runs `count` requests with `concurrency` in flight; returns server CPU ms spent. */
async function drive(
  url: string,
  body: string,
  count: number,
  concurrency: number,
  pid: number,
): Promise<number> {
  const before = cpuMs(pid);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await new Promise((r) => setTimeout(r, 700)); // let the batched writer flush inside the window
  return cpuMs(pid) - before;
}

/**
 * Portkey's open-source gateway as a peer, installed once with npm into a cache folder (its install
 * scripts are skipped: they write outside it). Returns null when npm or the package is unavailable.
 */
async function startPortkey(port: number): Promise<string | null> {
  if (Deno.env.get("BENCH_PEERS") === "0") return null;
  const dir = join(Deno.env.get("HOME") ?? "/tmp", ".cache", "gateway-bench-peers");
  const entry = join(dir, "node_modules/@portkey-ai/gateway/build/start-server.js");
  try {
    Deno.statSync(entry);
  } catch {
    await Deno.mkdir(dir, { recursive: true });
    const install = await new Deno.Command("npm", {
      args: ["i", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", dir, "@portkey-ai/gateway"],
      stdout: "null",
      stderr: "null",
    }).output().catch(() => null);
    if (!install?.success) return null;
  }
  const child = new Deno.Command("taskset", {
    args: ["-c", "0", "node", entry, `--port=${port}`, "--headless"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  children.push(child);
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}

async function main() {
  await new Deno.Command("taskset", { args: ["-pc", "1", String(Deno.pid)], stdout: "null" }).output();
  const home = await Deno.makeTempDir({ prefix: "gateway-bench-" });
  const config = join(home, "config.yaml");
  await Deno.writeTextFile(
    config,
    `server:\n  require_api_key: false\nproviders:\n  - id: bench-1\n    prefix: bench\n    api_type: chat_compat\n    base_url: http://127.0.0.1:${PORTS.mock}/v1\n    models: [m1]\n` +
      `  - id: spaced-1\n    prefix: spaced\n    api_type: chat_compat\n` +
      `    base_url: http://127.0.0.1:${PORTS.mock}/spaced/v1\n    models: [m1]\n`,
  );
  spawnPinned("1", ["run", "-A", "scripts/bench/mock_upstream.ts", String(PORTS.mock)]);
  // A proxy script on CPU 0: `<port> <upstream base>`.
  const proxy = (script: string, port: number, upstreamPath = "") =>
    spawnPinned("0", [
      "run",
      "-A",
      `scripts/bench/${script}`,
      String(port),
      `http://127.0.0.1:${PORTS.mock}${upstreamPath}`,
    ]);
  proxy("bare_proxy.ts", PORTS.bare);
  const bareSpaced = proxy("bare_proxy.ts", PORTS.bareSpaced, "/spaced");
  const jsSpaced = proxy("js_stream_proxy.ts", PORTS.jsSpaced, "/spaced");
  const gateway = spawnPinned("0", [
    "run",
    "-A",
    "main.ts",
    "serve",
    "--config",
    config,
    "--port",
    String(PORTS.gateway),
  ]);
  const direct = `http://127.0.0.1:${PORTS.mock}/v1/chat/completions`;
  const bare = `http://127.0.0.1:${PORTS.bare}/v1/chat/completions`;
  const viaGateway = `http://127.0.0.1:${PORTS.gateway}/v1/chat/completions`;
  await Promise.all([waitReady(direct), waitReady(bare), waitReady(viaGateway)]);
  // Warm-up so JIT and connection pools settle (see WARMUP_SECONDS).
  await wrk(viaGateway, { seconds: WARMUP_SECONDS });
  await wrk(bare, { seconds: Math.ceil(WARMUP_SECONDS / 3) });

  console.log(
    `Non-stream throughput (wrk -t1 -c50 -d${WRK_SECONDS}s, servers on one core, ${ROUNDS} alternating rounds):`,
  );
  const rpsDirect = await wrk(direct);
  // Shared machines drift by tens of percent within a minute: the bare proxy and the gateway are
  // measured in alternating rounds and compared round by round.
  const bareRounds: number[] = [];
  const gatewayRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRounds.push(await wrk(bare));
    gatewayRounds.push(await wrk(viaGateway));
  }
  const ratios = gatewayRounds.map((g, i) => g / bareRounds[i]);
  const rpsBare = median(bareRounds);
  const rpsGateway = median(gatewayRounds);
  const portkey = await startPortkey(PORTS.portkey);
  let rpsPortkey: number | null = null;
  if (portkey) {
    await new Promise((r) => setTimeout(r, 2500));
    const portkeyLoad = {
      headers: {
        "x-portkey-provider": "openai",
        "x-portkey-custom-host": `http://127.0.0.1:${PORTS.mock}/v1`,
        authorization: "Bearer bench",
      },
      body: JSON.stringify({
        model: "m1",
        messages: [{ role: "user", content: "Say hello." }],
        max_tokens: 64,
      }),
    };
    // Warmed up like the bare proxy: Node's JIT needs its turn too.
    rpsPortkey = await wrk(portkey, { ...portkeyLoad, seconds: Math.ceil(WARMUP_SECONDS / 3) })
      .then(() => wrk(portkey, portkeyLoad))
      .catch(() => null);
  }
  console.log(`  direct to mock      ${rpsDirect.toFixed(0)} req/s`);
  console.log(`  bare Deno proxy     ${rpsBare.toFixed(0)} req/s`);
  console.log(
    `  gateway             ${rpsGateway.toFixed(0)} req/s  (median ${
      (median(ratios) * 100).toFixed(0)
    }% of the bare proxy; rounds: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(", ")})`,
  );
  if (rpsPortkey !== null) {
    console.log(
      `  Portkey gateway     ${rpsPortkey.toFixed(0)} req/s  (gateway: ${
        (rpsGateway / rpsPortkey).toFixed(1)
      }x)`,
    );
  } else {console.log(
      "  Portkey gateway     skipped (npm or the package unavailable; BENCH_PEERS=0 skips it)",
    );}

  console.log("Added latency at a fixed 500 req/s (5 alternating 1 s slices each):");
  const latDirect: number[] = [];
  const latGateway: number[] = [];
  for (let slice = 0; slice < 5; slice++) {
    latDirect.push(...await fixedRate(direct, 500, 1));
    latGateway.push(...await fixedRate(viaGateway, 500, 1));
  }
  latDirect.sort((a, b) => a - b);
  latGateway.sort((a, b) => a - b);
  const p50 = percentile(latGateway, 50) - percentile(latDirect, 50);
  const p99 = percentile(latGateway, 99) - percentile(latDirect, 99);
  console.log(
    `  direct p50 ${percentile(latDirect, 50).toFixed(2)} ms, p99 ${percentile(latDirect, 99).toFixed(2)} ms`,
  );
  console.log(
    `  gateway p50 ${percentile(latGateway, 50).toFixed(2)} ms, p99 ${
      percentile(latGateway, 99).toFixed(2)
    } ms`,
  );
  console.log(`  added p50 ${p50.toFixed(2)} ms, added p99 ${p99.toFixed(2)} ms`);

  console.log("Gateway CPU per streamed chunk (400 streams x 50 chunks, 10 concurrent):");
  const streams = 400;
  const chunks = streams * 50;
  // Steady state only: the first runs of each path include JIT compilation (counted as process CPU).
  const messagesUrl = `http://127.0.0.1:${PORTS.gateway}/v1/messages`;
  await drive(viaGateway, CHAT_STREAM_BODY, 300, 10, gateway.pid);
  await drive(messagesUrl, MESSAGES_STREAM_BODY, 300, 10, gateway.pid);
  const nonStreamCpu = await drive(viaGateway, CHAT_BODY, streams, 10, gateway.pid);
  const passthroughCpu = await drive(viaGateway, CHAT_STREAM_BODY, streams, 10, gateway.pid);
  const translateCpu = await drive(
    messagesUrl,
    MESSAGES_STREAM_BODY,
    streams,
    10,
    gateway.pid,
  );
  const perChunk = (cpu: number) => ((cpu * 1000) / chunks).toFixed(1);
  const marginal = (cpu: number) => (((cpu - nonStreamCpu) * 1000) / chunks).toFixed(1);
  console.log(
    `  non-stream request overhead   ${((nonStreamCpu * 1000) / streams).toFixed(0)} µs CPU per request`,
  );
  console.log(
    `  chat passthrough              ${perChunk(passthroughCpu)} µs/chunk all-in, ${
      marginal(passthroughCpu)
    } µs/chunk beyond a non-stream request`,
  );
  console.log(
    `  messages <- chat translate    ${perChunk(translateCpu)} µs/chunk all-in, ${
      marginal(translateCpu)
    } µs/chunk beyond a non-stream request`,
  );

  // A real model sends each chunk in its own write, so every chunk costs a read and a write on top of
  // the parsing. The bare proxy pipes chunks natively and never runs JavaScript for them; the JS
  // stream proxy moves each chunk through JavaScript and does nothing else, which is the floor for any
  // proxy that must look at chunks. The gateway's own work per chunk is what it costs beyond that floor.
  const spaced = 150;
  console.log(
    `Chunk-per-write streams (${spaced} streams x 51 writes, 10 concurrent, ${ROUNDS} alternating rounds), CPU per chunk all-in:`,
  );
  const spacedTargets = [
    { url: viaGateway, body: SPACED_STREAM_BODY, pid: gateway.pid, rounds: [] as number[] },
    {
      url: `http://127.0.0.1:${PORTS.bareSpaced}/v1/chat/completions`,
      body: CHAT_STREAM_BODY,
      pid: bareSpaced.pid,
      rounds: [] as number[],
    },
    {
      url: `http://127.0.0.1:${PORTS.jsSpaced}/v1/chat/completions`,
      body: CHAT_STREAM_BODY,
      pid: jsSpaced.pid,
      rounds: [] as number[],
    },
  ];
  for (const target of spacedTargets) await drive(target.url, target.body, 50, 10, target.pid);
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of spacedTargets) {
      const cpu = await drive(target.url, target.body, spaced, 10, target.pid);
      target.rounds.push((cpu * 1000) / (spaced * 51));
    }
  }
  const [gatewayChunk, bareChunk, floorChunk] = spacedTargets.map((t) => median(t.rounds));
  console.log(`  bare Deno proxy (native pipe)        ${bareChunk.toFixed(1)} µs/chunk`);
  console.log(`  JS stream proxy (the JS floor)       ${floorChunk.toFixed(1)} µs/chunk`);
  console.log(
    `  gateway (chat passthrough)           ${gatewayChunk.toFixed(1)} µs/chunk: ${
      (gatewayChunk - floorChunk).toFixed(1)
    } µs/chunk beyond the JS floor`,
  );
  await Deno.remove(home, { recursive: true });
}

try {
  await main();
} finally {
  for (const child of children) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
  }
  await Promise.allSettled(children.map((c) => c.status));
}
