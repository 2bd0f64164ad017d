/**
 * Bench (issue 29): requests per second with OTLP trace export on (sampling 1.0, every request exported)
 * against export off, side by side in one run. Two gateways share CPU 0 and are loaded at the same time
 * (one wrk each, on CPU 1 with the mock upstream and a local OTLP receiver that answers 200 to every
 * export), so whatever else the machine does in a round hits both alike and neither sits idle while the
 * other runs. Rounds taken one gateway at a time read 63-116 % in one run on this shared machine; loaded
 * together, a gateway against an identical one reads 96-101 % a round (2026-11-28). Reports the median of
 * the rounds' ratios and the spans the exporting gateway reported exported and dropped (/metrics).
 * Goal: on ≥ 97 % of off.
 * Run: deno run -A scripts/bench/telemetry_export.ts   (BENCH_TELEMETRY_ROUNDS, BENCH_WARMUP_SECONDS)
 * The receiver alone: deno run -A scripts/bench/telemetry_export.ts sink <port>
 */
import { join } from "node:path";
import { median, processCpuMs, serverBundle, waitReady, wrkPost } from "./bench_process.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PORTS = { mock: 18111, sink: 18112, off: 18113, on: 18114 };
const ROUNDS = Number(Deno.env.get("BENCH_TELEMETRY_ROUNDS") ?? 9);
const ROUND_SECONDS = 3;
const WARMUP_SECONDS = Number(Deno.env.get("BENCH_WARMUP_SECONDS") ?? 15);
const TOKEN = "bench-metrics-token-0123456789";
const BODY = JSON.stringify({
  model: "bench/m1",
  messages: [{ role: "user", content: "Say hello." }],
  max_tokens: 64,
});

/** The OTLP receiver: reads each export and answers 200 with an empty partial-success body. */
function serveSink(port: number): void {
  Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (request) => {
    await request.arrayBuffer();
    return new Response(new Uint8Array(), { headers: { "content-type": "application/x-protobuf" } });
  });
}

/** One wrk round: requests per second and the gateway's CPU µs per request. */
async function round(url: string, pid: number, seconds: number): Promise<{ rps: number; cpuUs: number }> {
  const before = processCpuMs(pid);
  const text = await wrkPost(url, BODY, ["-t1", "-c50", `-d${seconds}s`], { cpu: "1" });
  const cpu = processCpuMs(pid) - before;
  const found = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const requests = /(\d+) requests in/.exec(text);
  if (!found || !requests) throw new Error(`wrk failed: ${text}`);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (errors) console.error(`  warning: ${errors[1]} non-2xx responses from ${url}`);
  return { rps: Number(found[1]), cpuUs: (cpu * 1000) / Number(requests[1]) };
}

/** A `/metrics` sample's value (summed over its labels), or 0. */
async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }))
    .text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) total += Number(line.split(" ").at(-1));
  }
  return total;
}

/** Runs the comparison; prints it and returns on/off (the median of the paired rounds' ratios). */
export async function benchTelemetryExport(): Promise<number> {
  const home = await Deno.makeTempDir({ prefix: "gateway-bench-otel-" });
  const children: Deno.ChildProcess[] = [];
  const spawn = (cpu: string, args: string[]) => {
    const child = new Deno.Command("taskset", {
      args: ["-c", cpu, Deno.execPath(), ...args],
      cwd: ROOT,
      stdout: "null",
      stderr: "inherit",
      env: { NO_COLOR: "1" },
    }).spawn();
    children.push(child);
    return child;
  };
  const provider = `providers:\n  - id: bench-1\n    prefix: bench\n    api_type: chat_compat\n` +
    `    base_url: http://127.0.0.1:${PORTS.mock}/v1\n    models: [m1]\n`;
  const common =
    `server:\n  require_api_key: false\nmetrics:\n  enabled: true\n  token: ${TOKEN}\n${provider}`;
  const configs = {
    off: common,
    // The defaults a deployment would use, with every request sampled.
    on: `${common}telemetry:\n  enabled: true\n  endpoint: http://127.0.0.1:${PORTS.sink}/v1/traces\n` +
      `  sampler: always_on\n`,
  };
  try {
    spawn("1", ["run", "-A", "scripts/bench/mock_upstream.ts", String(PORTS.mock)]);
    spawn("1", ["run", "-A", "scripts/bench/telemetry_export.ts", "sink", String(PORTS.sink)]);
    const urls: Record<"off" | "on", string> = { off: "", on: "" };
    const pids: Record<"off" | "on", number> = { off: 0, on: 0 };
    for (const mode of ["off", "on"] as const) {
      const dir = join(home, mode);
      await Deno.mkdir(dir);
      await Deno.writeTextFile(join(dir, "config.yaml"), configs[mode]);
      pids[mode] = spawn("0", [
        "run",
        "-A",
        V8_FLAGS_ARG,
        await serverBundle(),
        "serve",
        "--config",
        join(dir, "config.yaml"),
        "--port",
        String(PORTS[mode]),
      ]).pid;
      urls[mode] = `http://127.0.0.1:${PORTS[mode]}/v1/chat/completions`;
      await waitReady(urls[mode], BODY);
    }
    // Both at once, as the rounds are: neither idles long enough for V8's memory reducer, whose
    // collection drops optimised code (a gateway's first seconds after ~8 s idle cost up to 1.7x).
    const both = (seconds: number) =>
      Promise.all([round(urls.off, pids.off, seconds), round(urls.on, pids.on, seconds)]);
    await both(WARMUP_SECONDS);
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const seen = { off: [] as number[], on: [] as number[], offCpu: [] as number[], onCpu: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      const [off, on] = await both(ROUND_SECONDS);
      seen.off.push(off.rps);
      seen.on.push(on.rps);
      seen.offCpu.push(off.cpuUs);
      seen.onCpu.push(on.cpuUs);
      ratios.push(on.rps / off.rps);
      // CPU per request off/on: the throughput ratio a CPU-bound gateway core would show.
      cpuRatios.push(off.cpuUs / on.cpuUs);
    }
    const ratio = median(ratios);
    const onBase = `http://127.0.0.1:${PORTS.on}`;
    console.log(
      `trace export (OTLP protobuf to a local receiver, sampling 1.0): off ${
        median(seen.off).toFixed(0)
      } req/s, ` +
        `on ${median(seen.on).toFixed(0)} req/s: on = ${(ratio * 100).toFixed(1)} % of off (goal ≥ 97 %; ` +
        `rounds: ${ratios.map((x) => (x * 100).toFixed(1)).join(", ")}); gateway CPU per request off ` +
        `${median(seen.offCpu).toFixed(0)} µs, on ${median(seen.onCpu).toFixed(0)} µs: off/on = ` +
        `${(median(cpuRatios) * 100).toFixed(1)} % (rounds: ${
          cpuRatios.map((x) => (x * 100).toFixed(1)).join(", ")
        }); spans exported ${await metric(
          onBase,
          "gateway_otel_spans_exported_total",
        )}, dropped ${await metric(onBase, "gateway_otel_spans_dropped_total")}`,
    );
    return ratio;
  } finally {
    // Gateways first, waited for (they flush their spans at shutdown), the receiver and the upstream last.
    const stop = async (some: Deno.ChildProcess[]) => {
      for (const child of some) {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
      }
      await Promise.allSettled(some.map((c) => c.status));
    };
    await stop(children.slice(2));
    await stop(children.slice(0, 2));
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "sink") serveSink(Number(Deno.args[1]));
  else await benchTelemetryExport();
}
