/**
 * `deno task bench`: the mock upstream, a bare Deno.serve+fetch proxy and the gateway, measured side by
 * side in one run on loopback. Servers are pinned to CPU 0; the load generators run on CPU 1.
 *
 * Reports: non-stream requests/s (wrk, 50 connections) for direct/bare-proxy/gateway/Portkey (peer, when
 * npm can install it) and the ratios, added p50/p99 latency at a fixed 500 requests/s, gateway CPU per
 * streamed chunk when a stream arrives in one write (passthrough and translate), and the CPU one more
 * chunk costs when each chunk arrives in its own write, against a JS pass-through floor and the bare
 * proxy's native pipe, and the routing decision alone with 1,000 accounts under one prefix
 * (`routing_resolve.ts`), embeddings throughput against a bare proxy of `/v1/embeddings` in alternating rounds;
 * then the issue's goals in their own runs: p99 over one connection against the bare proxy and RSS after load
 * (`latency_rss.ts`), trace export on vs off (`telemetry_export.ts`), 1 vs N workers and PostgreSQL vs SQLite
 * (`workers.ts`); last, issue 31's goals in one table (`stream_goals.ts`: streams/s and CPU per chunk against
 * the bare proxy and the JS floor, translated streams against the passthrough, non-stream req/s, RSS after
 * load and 30 s later). Bounded in time: about thirteen minutes.
 */
import { join } from "node:path";
import { benchRoutingResolve } from "./routing_resolve.ts";
import { benchMetricsCost } from "./metrics_cost.ts";
import { benchLimitsWired } from "./limits_wired.ts";
import { benchLatencyRss } from "./latency_rss.ts";
import { benchTelemetryExport } from "./telemetry_export.ts";
import { benchStreamGoals } from "./stream_goals.ts";
import { median, processCpuMs, serverBundle, waitReady, wrkPost } from "./bench_process.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PORTS = {
  mock: 18101,
  bare: 18102,
  gateway: 18103,
  portkey: 18104,
  bareSpaced: 18105,
  jsSpaced: 18106,
  clientBare: 18107,
  bareEmbeddings: 18108,
};
const WRK_SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
/**
 * The gateway/bare comparison: many short alternating rounds. On a shared machine the speed of both
 * servers swings by tens of percent within seconds; short paired rounds see the same swing, and the
 * median of their ratios is what stays put between runs.
 */
const THROUGHPUT_ROUNDS = Number(Deno.env.get("BENCH_THROUGHPUT_ROUNDS") ?? 9);
const THROUGHPUT_ROUND_SECONDS = 2;
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
/** Chunk-per-write streams come in two lengths; the mock streams `max_tokens` content chunks. */
const SPACED_SHORT = 48;
const SPACED_LONG = 198;
const spacedBody = (model: string, content: number) =>
  JSON.stringify({
    model,
    stream: true,
    messages: [{ role: "user", content: "Say hello." }],
    max_tokens: content,
  });
const MESSAGES_BODY = JSON.stringify({
  model: "bench/m1",
  max_tokens: 64,
  messages: [{ role: "user", content: "Say hello." }],
});
const MESSAGES_STREAM_BODY = MESSAGES_BODY.replace("{", '{"stream":true,');
/** An embeddings request as the `openai` SDK (and LangChain over it) sends one: base64 vectors by default. */
const EMBEDDINGS_BODY = JSON.stringify({
  model: "bench/text-embedding-3-small",
  input: "Say hello.",
  encoding_format: "base64",
});
const EMBEDDINGS_ROUNDS = Number(Deno.env.get("BENCH_EMBEDDINGS_ROUNDS") ?? 5);

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

async function wrk(
  url: string,
  { headers = {}, body = CHAT_BODY, seconds = WRK_SECONDS }: {
    headers?: Record<string, string>;
    body?: string;
    seconds?: number;
  } = {},
): Promise<{ rps: number; requests: number }> {
  const text = await wrkPost(url, body, ["-t1", "-c50", `-d${seconds}s`], { cpu: "1", headers });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const requests = /(\d+) requests in/.exec(text);
  if (!rps || !requests) throw new Error(`wrk failed: ${text}`);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (errors) console.error(`  warning: ${errors[1]} non-2xx responses from ${url}`);
  return { rps: Number(rps[1]), requests: Number(requests[1]) };
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `count` requests with `concurrency` in flight; returns server CPU ms spent. */
async function drive(
  url: string,
  body: string,
  count: number,
  concurrency: number,
  pid: number,
): Promise<number> {
  const before = processCpuMs(pid);
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
  return processCpuMs(pid) - before;
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

/** Stops early with a clear message when a benchmark port is taken (the numbers would be another server's). */
function assertPortsFree(): void {
  for (const port of Object.values(PORTS)) {
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
    } catch {
      throw new Error(`port ${port} is in use; the benchmark needs ports ${Object.values(PORTS).join(", ")}`);
    }
  }
}

async function main() {
  assertPortsFree();
  await new Deno.Command("taskset", { args: ["-apc", "1", String(Deno.pid)], stdout: "null" }).output();
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
  const bareProxy = proxy("bare_proxy.ts", PORTS.bare);
  const bareEmbeddings = spawnPinned("0", [
    "run",
    "-A",
    "scripts/bench/bare_proxy.ts",
    String(PORTS.bareEmbeddings),
    `http://127.0.0.1:${PORTS.mock}`,
    "/v1/embeddings",
  ]);
  const clientProxy = proxy("client_proxy.ts", PORTS.clientBare);
  const bareSpaced = proxy("bare_proxy.ts", PORTS.bareSpaced, "/spaced");
  const jsSpaced = proxy("js_stream_proxy.ts", PORTS.jsSpaced, "/spaced");
  const gateway = spawnPinned("0", [
    "run",
    "-A",
    V8_FLAGS_ARG,
    await serverBundle(),
    "serve",
    "--config",
    config,
    "--port",
    String(PORTS.gateway),
  ]);
  const direct = `http://127.0.0.1:${PORTS.mock}/v1/chat/completions`;
  const bare = `http://127.0.0.1:${PORTS.bare}/v1/chat/completions`;
  const viaGateway = `http://127.0.0.1:${PORTS.gateway}/v1/chat/completions`;
  const viaClientProxy = `http://127.0.0.1:${PORTS.clientBare}/v1/chat/completions`;
  await Promise.all([
    waitReady(direct, CHAT_BODY),
    waitReady(bare, CHAT_BODY),
    waitReady(viaGateway, CHAT_BODY),
    waitReady(viaClientProxy, CHAT_BODY),
  ]);
  // Warm-up so JIT and connection pools settle (see WARMUP_SECONDS).
  await wrk(viaGateway, { seconds: WARMUP_SECONDS });
  await wrk(bare, { seconds: Math.ceil(WARMUP_SECONDS / 3) });

  console.log(
    `Non-stream throughput (wrk -t1 -c50, servers on one core, ${THROUGHPUT_ROUNDS} alternating ${THROUGHPUT_ROUND_SECONDS} s rounds):`,
  );
  const rpsDirect = (await wrk(direct)).rps;
  // Each round also reads the server's CPU time (all its threads) per request: when a server is
  // CPU-bound on its core, that is the inverse of its throughput, without the load generator's noise.
  const round = async (url: string, pid: number) => {
    const before = processCpuMs(pid);
    const result = await wrk(url, { seconds: THROUGHPUT_ROUND_SECONDS });
    return { rps: result.rps, cpuUs: ((processCpuMs(pid) - before) * 1000) / result.requests };
  };
  const bareRounds: { rps: number; cpuUs: number }[] = [];
  const gatewayRounds: { rps: number; cpuUs: number }[] = [];
  const clientRounds: { rps: number; cpuUs: number }[] = [];
  await wrk(viaClientProxy, { seconds: Math.ceil(WARMUP_SECONDS / 3) });
  for (let i = 0; i < THROUGHPUT_ROUNDS; i++) {
    bareRounds.push(await round(bare, bareProxy.pid));
    gatewayRounds.push(await round(viaGateway, gateway.pid));
    clientRounds.push(await round(viaClientProxy, clientProxy.pid));
  }
  const clientCpuRatios = gatewayRounds.map((g, i) => clientRounds[i].cpuUs / g.cpuUs);
  const ratios = gatewayRounds.map((g, i) => g.rps / bareRounds[i].rps);
  const cpuRatios = gatewayRounds.map((g, i) => bareRounds[i].cpuUs / g.cpuUs);
  const rpsBare = median(bareRounds.map((r) => r.rps));
  const rpsGateway = median(gatewayRounds.map((r) => r.rps));
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
      .then((result) => result.rps, () => null);
  }
  console.log(`  direct to mock      ${rpsDirect.toFixed(0)} req/s`);
  console.log(`  bare Deno proxy     ${rpsBare.toFixed(0)} req/s`);
  console.log(
    `  gateway             ${rpsGateway.toFixed(0)} req/s  (median ${
      (median(ratios) * 100).toFixed(0)
    }% of the bare proxy; rounds: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(", ")})`,
  );
  console.log(
    `  CPU per request     gateway ${median(gatewayRounds.map((r) => r.cpuUs)).toFixed(0)} µs, bare ${
      median(bareRounds.map((r) => r.cpuUs)).toFixed(0)
    } µs  (the gateway does ${
      (median(cpuRatios) * 100).toFixed(0)
    }% of the bare proxy's work per CPU second)`,
  );
  console.log(
    `  bare proxy with the gateway's HTTP client  ${
      median(clientRounds.map((r) => r.rps)).toFixed(0)
    } req/s, ${median(clientRounds.map((r) => r.cpuUs)).toFixed(0)} µs CPU per request (the gateway does ${
      (median(clientCpuRatios) * 100).toFixed(0)
    }% of its work per CPU second: the rest is the gateway's own work)`,
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

  // Embeddings the same way as chat: alternating rounds against a bare proxy of the same endpoint. The
  // gateway decodes the upstream's base64 vector and encodes it again for the client; the proxy pipes bytes.
  const bareEmbeddingsUrl = `http://127.0.0.1:${PORTS.bareEmbeddings}/v1/embeddings`;
  const gatewayEmbeddingsUrl = `http://127.0.0.1:${PORTS.gateway}/v1/embeddings`;
  await waitReady(bareEmbeddingsUrl, EMBEDDINGS_BODY);
  await wrk(gatewayEmbeddingsUrl, { body: EMBEDDINGS_BODY, seconds: Math.ceil(WARMUP_SECONDS / 3) });
  await wrk(bareEmbeddingsUrl, { body: EMBEDDINGS_BODY, seconds: Math.ceil(WARMUP_SECONDS / 5) });
  const embeddingsRound = async (url: string, pid: number) => {
    const before = processCpuMs(pid);
    const result = await wrk(url, { body: EMBEDDINGS_BODY, seconds: THROUGHPUT_ROUND_SECONDS });
    return { rps: result.rps, cpuUs: ((processCpuMs(pid) - before) * 1000) / result.requests };
  };
  const bareEmbeddingRounds: { rps: number; cpuUs: number }[] = [];
  const gatewayEmbeddingRounds: { rps: number; cpuUs: number }[] = [];
  for (let i = 0; i < EMBEDDINGS_ROUNDS; i++) {
    bareEmbeddingRounds.push(await embeddingsRound(bareEmbeddingsUrl, bareEmbeddings.pid));
    gatewayEmbeddingRounds.push(await embeddingsRound(gatewayEmbeddingsUrl, gateway.pid));
  }
  const embeddingRatios = gatewayEmbeddingRounds.map((g, i) => g.rps / bareEmbeddingRounds[i].rps);
  console.log(
    `Embeddings (one 1536-dimension base64 vector, wrk -t1 -c50, ${EMBEDDINGS_ROUNDS} alternating ${THROUGHPUT_ROUND_SECONDS} s rounds):`,
  );
  console.log(`  bare Deno proxy     ${median(bareEmbeddingRounds.map((r) => r.rps)).toFixed(0)} req/s`);
  console.log(
    `  gateway             ${median(gatewayEmbeddingRounds.map((r) => r.rps)).toFixed(0)} req/s  (median ${
      (median(embeddingRatios) * 100).toFixed(0)
    }% of the bare proxy; rounds: ${embeddingRatios.map((r) => `${(r * 100).toFixed(0)}%`).join(", ")})`,
  );
  console.log(
    `  CPU per request     gateway ${
      median(gatewayEmbeddingRounds.map((r) => r.cpuUs)).toFixed(0)
    } µs, bare ${median(bareEmbeddingRounds.map((r) => r.cpuUs)).toFixed(0)} µs`,
  );

  // The bare proxy is measured too: a second hop on loopback costs something on its own, and the
  // gateway's share is what it adds beyond that hop.
  console.log("Added latency at a fixed 500 req/s (5 alternating 1 s slices each):");
  const latency: Record<"direct" | "bare" | "gateway", number[]> = { direct: [], bare: [], gateway: [] };
  for (let slice = 0; slice < 5; slice++) {
    latency.direct.push(...await fixedRate(direct, 500, 1));
    latency.bare.push(...await fixedRate(bare, 500, 1));
    latency.gateway.push(...await fixedRate(viaGateway, 500, 1));
  }
  for (const list of Object.values(latency)) list.sort((a, b) => a - b);
  const p = (list: number[], q: number) => percentile(list, q).toFixed(2);
  for (const [name, list] of Object.entries(latency)) {
    console.log(`  ${name.padEnd(8)} p50 ${p(list, 50)} ms, p99 ${p(list, 99)} ms`);
  }
  const added = (list: number[], base: number[], q: number) =>
    (percentile(list, q) - percentile(base, q)).toFixed(2);
  console.log(
    `  added by the gateway p50 ${added(latency.gateway, latency.direct, 50)} ms, p99 ${
      added(latency.gateway, latency.direct, 99)
    } ms; by the bare proxy p50 ${
      added(latency.bare, latency.direct, 50)
    } ms; gateway beyond the bare hop p50 ${added(latency.gateway, latency.bare, 50)} ms`,
  );

  // Each stream is compared with a non-stream request of the same surface (a messages request decodes
  // and encodes differently from a chat one), in alternating rounds; the difference per chunk is what
  // streaming costs.
  console.log(
    `Gateway CPU per streamed chunk (400 streams x 50 chunks in one write, 10 concurrent, ${ROUNDS} alternating rounds):`,
  );
  const streams = 400;
  const chunks = streams * 50;
  const messagesUrl = `http://127.0.0.1:${PORTS.gateway}/v1/messages`;
  const streamCases = [
    { name: "chat passthrough          ", url: viaGateway, plain: CHAT_BODY, stream: CHAT_STREAM_BODY },
    {
      name: "messages <- chat translate",
      url: messagesUrl,
      plain: MESSAGES_BODY,
      stream: MESSAGES_STREAM_BODY,
    },
  ].map((c) => ({ ...c, plainUs: [] as number[], allIn: [] as number[], beyond: [] as number[] }));
  // Steady state only: the first runs of each path include JIT compilation (counted as process CPU).
  for (const c of streamCases) {
    await drive(c.url, c.plain, 300, 10, gateway.pid);
    await drive(c.url, c.stream, 300, 10, gateway.pid);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of streamCases) {
      const plainCpu = await drive(c.url, c.plain, streams, 10, gateway.pid);
      const streamCpu = await drive(c.url, c.stream, streams, 10, gateway.pid);
      c.plainUs.push((plainCpu * 1000) / streams);
      c.allIn.push((streamCpu * 1000) / chunks);
      c.beyond.push(((streamCpu - plainCpu) * 1000) / chunks);
    }
  }
  for (const c of streamCases) {
    console.log(
      `  ${c.name}  ${median(c.allIn).toFixed(1)} µs/chunk all-in, ${
        median(c.beyond).toFixed(1)
      } µs/chunk beyond a non-stream request (${median(c.plainUs).toFixed(0)} µs; rounds: ${
        c.beyond.map((v) => v.toFixed(1)).join(", ")
      })`,
    );
  }

  // A real model sends each chunk in its own write, so every chunk costs a read and a write on top of
  // the parsing. The bare proxy pipes chunks natively and never runs JavaScript for them; the JS
  // stream proxy moves each chunk through JavaScript and does nothing else, which is the floor for any
  // proxy that must look at chunks. The cost of a chunk is the slope between streams of two lengths
  // (the CPU of the longer streams minus the shorter ones, over the extra chunks), so the request's own
  // work (routing, recording, setting up the stream) is not spread over the chunks; that per-request
  // share had read as 3-6 µs/chunk and varied with the request's cost. The gateway's own work per
  // chunk is its slope minus the floor's, measured in the same rounds.
  const spaced = 100;
  const extraChunks = spaced * (SPACED_LONG - SPACED_SHORT);
  const spacedRounds = ROUNDS + 4;
  console.log(
    `Chunk-per-write streams (${spaced} streams of ${SPACED_SHORT} and of ${SPACED_LONG} content chunks, 10 concurrent, ${spacedRounds} rounds), CPU per extra chunk:`,
  );
  const spacedTarget = (url: string, model: string, pid: number) => ({
    url,
    model,
    pid,
    cpu: new Map<number, number>(),
    slopes: [] as number[],
  });
  const spacedGateway = spacedTarget(viaGateway, "spaced/m1", gateway.pid);
  const spacedFloor = spacedTarget(
    `http://127.0.0.1:${PORTS.jsSpaced}/v1/chat/completions`,
    "m1",
    jsSpaced.pid,
  );
  const spacedBare = spacedTarget(
    `http://127.0.0.1:${PORTS.bareSpaced}/v1/chat/completions`,
    "m1",
    bareSpaced.pid,
  );
  const measureSlope = async (targets: ReturnType<typeof spacedTarget>[], longFirst: boolean) => {
    // Each length runs on every target back to back, so the machine's drift hits them alike; which
    // length runs first alternates between rounds.
    for (const length of longFirst ? [SPACED_LONG, SPACED_SHORT] : [SPACED_SHORT, SPACED_LONG]) {
      for (const t of targets) {
        t.cpu.set(length, await drive(t.url, spacedBody(t.model, length), spaced, 10, t.pid));
      }
    }
    for (const t of targets) {
      t.slopes.push(((t.cpu.get(SPACED_LONG)! - t.cpu.get(SPACED_SHORT)!) * 1000) / extraChunks);
    }
  };
  // The gateway is warmed longer: after the one-write streams it runs chunk-per-write streams 20-25 %
  // dearer for the first thousand or so (measured outside the bench).
  for (const target of [spacedGateway, spacedFloor, spacedBare]) {
    const warm = target === spacedGateway ? 3 : 1;
    await drive(target.url, spacedBody(target.model, SPACED_SHORT), 300 * warm, 10, target.pid);
    await drive(target.url, spacedBody(target.model, SPACED_LONG), 100 * warm, 10, target.pid);
  }
  for (let round = 0; round < spacedRounds; round++) {
    await measureSlope([spacedGateway, spacedFloor], round % 2 === 1);
  }
  // The native pipe runs no JavaScript per chunk: what a chunk's read and write cost the process alone.
  await measureSlope([spacedBare], false);
  console.log(`  bare Deno proxy (native pipe)        ${median(spacedBare.slopes).toFixed(1)} µs/chunk`);
  console.log(`  JS stream proxy (the JS floor)       ${median(spacedFloor.slopes).toFixed(1)} µs/chunk`);
  const beyondFloor = spacedGateway.slopes.map((g, i) => g - spacedFloor.slopes[i]);
  console.log(
    `  gateway (chat passthrough)           ${median(spacedGateway.slopes).toFixed(1)} µs/chunk: ${
      median(beyondFloor).toFixed(1)
    } µs/chunk beyond the JS floor (rounds: ${beyondFloor.map((v) => v.toFixed(1)).join(", ")})`,
  );
  await Deno.remove(home, { recursive: true });
  // The routing decision alone, in this process: 1,000 accounts under one prefix.
  benchRoutingResolve(1000, 20_000);
  // What metrics and x-gateway-overhead-ms add to each request, in this process.
  benchMetricsCost(200_000);
  // What per-key rate limits and budgets of every period cost each request, in this process.
  benchLimitsWired(1000, 100_000);
  // Requests per second with OTLP trace export on (sampling 1.0) vs off (its own servers on its own ports).
  await benchTelemetryExport();
  // p99 over one connection and RSS after load, against the bare proxy (its own servers on its own ports).
  await benchLatencyRss();
  // Scale-out: 1 vs N workers, SQLite vs PostgreSQL (its own servers on its own ports). This process is
  // pinned to CPU 1 and a child inherits that, which put every worker on one core; the child gets every
  // online CPU back.
  const online = Deno.readTextFileSync("/sys/devices/system/cpu/online").trim();
  await new Deno.Command("taskset", {
    args: [
      "-c",
      online,
      Deno.execPath(),
      "run",
      "-A",
      "scripts/bench/workers.ts",
      String(navigator.hardwareConcurrency || 2),
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  // Issue 31's ratios and RSS figures in one table, last so it is what the run ends on (its own servers
  // on their own ports).
  await benchStreamGoals();
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
