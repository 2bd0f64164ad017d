/**
 * Scale-out side by side in one run: `serve --workers N` against one worker, and one worker on PostgreSQL
 * against one on SQLite: requests per second (wrk, 50 connections) and the server's CPU per request, all
 * worker processes summed. On a machine whose cores are not free (wrk and the mock upstream share them
 * here), requests per second cannot show the scaling; CPU per request can: if N workers spend the same CPU
 * per request as one, N free cores give N times the throughput.
 * Usage: deno run -A scripts/bench/workers.ts [workers=2] [seconds=5]
 */
import { dirname, join } from "node:path";
import { postgresUnavailable, testPostgres } from "../../tests/helpers/postgres.ts";
import { serverBundle, waitReady, wrkPost } from "./bench_process.ts";
import { type CpuQuota, cpuQuota, cpuQuotaUnavailable } from "./cpu_quota.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const WORKERS = Number(Deno.args[0] ?? 2);
const SECONDS = Number(Deno.args[1] ?? 5);
const MOCK_PORT = 18131;
const GATEWAY_PORT = 18132;
const BODY = JSON.stringify({ model: "bench/m1", messages: [{ role: "user", content: "Say hello." }] });

/** CPU ms of a process tree (the supervisor and its workers), from the scheduler's counters. */
function treeCpuMs(pid: number): number {
  let ns = 0;
  const pids = [pid];
  while (pids.length > 0) {
    const current = pids.pop()!;
    try {
      for (const task of Deno.readDirSync(`/proc/${current}/task`)) {
        try {
          ns += Number(Deno.readTextFileSync(`/proc/${current}/task/${task.name}/schedstat`).split(" ")[0]);
          const children = Deno.readTextFileSync(`/proc/${current}/task/${task.name}/children`).trim();
          if (children) pids.push(...children.split(" ").map(Number));
        } catch { /* the thread ended */ }
      }
    } catch { /* the process ended */ }
  }
  return ns / 1e6;
}

/** CPU ms of a process's main thread (the event loop), from the scheduler's counters. */
function mainThreadCpuMs(pid: number): number {
  try {
    return Number(Deno.readTextFileSync(`/proc/${pid}/task/${pid}/schedstat`).split(" ")[0]) / 1e6;
  } catch {
    return NaN;
  }
}

async function wrk(url: string, seconds: number): Promise<{ rps: number; requests: number }> {
  const text = await wrkPost(url, BODY, ["-t1", "-c50", `-d${seconds}s`]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const requests = /(\d+) requests in/.exec(text);
  if (!rps || !requests) throw new Error(`wrk failed: ${text}`);
  if (/Non-2xx/.test(text)) console.error(`  warning: non-2xx answers: ${text}`);
  return { rps: Number(rps[1]), requests: Number(requests[1]) };
}

/**
 * Requests per second and CPU per request of `serve --workers <workers>`, or (`independent`) of that many
 * single gateways that share nothing but the port (each its own home and database, bound with SO_REUSEPORT
 * as a worker is): the control that tells the machine's own scaling from the cost of sharing a database.
 */
async function measure(
  workers: number,
  config: string,
  env: Record<string, string> = {},
  quota?: CpuQuota,
  independent = false,
) {
  const bundle = await serverBundle();
  const serve = (configFile: string, extra: string[]) => [
    Deno.execPath(),
    "run",
    "-A",
    "--unstable-net",
    V8_FLAGS_ARG,
    bundle,
    "serve",
    "--config",
    configFile,
    "--port",
    String(GATEWAY_PORT),
    ...extra,
  ];
  // Every measurement starts on a fresh database: a usage table grown by the runs before makes each insert
  // dearer, which would count against whichever configuration runs later.
  const freshConfig = () => {
    const dir = Deno.makeTempDirSync({ dir: dirname(config), prefix: "run-" });
    Deno.copyFileSync(config, join(dir, "config.yaml"));
    return join(dir, "config.yaml");
  };
  const commands = independent
    ? Array.from({ length: workers }, (_, i) => ({
      command: serve(freshConfig(), []),
      env: { GATEWAY_WORKER_ID: String(i + 1) },
    }))
    : [{ command: serve(freshConfig(), ["--workers", String(workers)]), env: {} }];
  const children = commands.map(({ command, env: own }) => {
    const [program, ...args] = quota === undefined ? command : ["sh", ...quota.wrap(command)];
    return new Deno.Command(program, {
      args,
      cwd: ROOT,
      stdout: "null",
      stderr: "inherit",
      env: { NO_COLOR: "1", ...env, ...own },
    }).spawn();
  });
  const sum = (read: (pid: number) => number) => children.reduce((total, c) => total + read(c.pid), 0);
  const url = `http://127.0.0.1:${GATEWAY_PORT}/v1/chat/completions`;
  try {
    await waitReady(url, BODY);
    await wrk(url, 10); // warm-up: V8 optimizes the gateway's code over the first ~30 k requests
    const before = sum(treeCpuMs);
    const mainBefore = sum(mainThreadCpuMs);
    const result = await wrk(url, SECONDS);
    const cpuUs = ((sum(treeCpuMs) - before) * 1000) / result.requests;
    // One worker is the gateway process itself: its main thread runs the event loop, the request path.
    const mainUs = ((sum(mainThreadCpuMs) - mainBefore) * 1000) / result.requests;
    return { rps: result.rps, cpuUs, mainUs };
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((c) => c.status));
  }
}

const home = await Deno.makeTempDir({ prefix: "gateway-bench-workers-" });
const config = join(home, "config.yaml");
await Deno.writeTextFile(
  config,
  `server:\n  require_api_key: false\nproviders:\n  - id: bench-1\n    prefix: bench\n    api_type: chat_compat\n` +
    `    base_url: http://127.0.0.1:${MOCK_PORT}/v1\n    models: [m1]\n`,
);
const mock = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "scripts/bench/mock_upstream.ts", String(MOCK_PORT)],
  cwd: ROOT,
  stdout: "null",
}).spawn();
try {
  const one = await measure(1, config);
  const many = await measure(WORKERS, config);
  // The same load on N gateways that share nothing but the port: what sharing one database costs per request.
  const apartFull = await measure(WORKERS, config, {}, undefined, true);
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  console.log(
    `Workers (wrk -t1 -c50, ${SECONDS} s, ${navigator.hardwareConcurrency} cores shared with wrk and the mock; ` +
      `load average ${load}, ${new Date().toISOString()}):`,
  );
  console.log(`  1 worker:  ${one.rps.toFixed(0)} req/s, ${one.cpuUs.toFixed(0)} µs CPU per request`);
  console.log(
    `  ${WORKERS} workers: ${many.rps.toFixed(0)} req/s, ${many.cpuUs.toFixed(0)} µs CPU per request`,
  );
  const perWorker = many.rps / one.rps / WORKERS;
  const cpuRatio = many.cpuUs / one.cpuUs;
  console.log(
    `  throughput ratio ${(many.rps / one.rps).toFixed(2)}× (${perWorker.toFixed(2)} per worker); ` +
      `CPU per request ${cpuRatio.toFixed(2)}× one worker's`,
  );
  console.log(
    `  ${WORKERS} gateways sharing nothing but the port: ${apartFull.rps.toFixed(0)} req/s, ${
      apartFull.cpuUs.toFixed(0)
    } µs CPU per request: the workers' shared database and cluster sync cost ${
      ((many.cpuUs / apartFull.cpuUs - 1) * 100).toFixed(0)
    } % CPU per request`,
  );
  // The goal, measured as it is stated and as the CPU counters project it for free cores.
  console.log(
    `  goal "${WORKERS} workers reach ≥ 0.8 × ${WORKERS} of one worker's req/s": measured ${
      perWorker.toFixed(2)
    } × ${WORKERS} (${
      perWorker >= 0.8 ? "met" : "not met"
    }; the cores are not free here: wrk, the mock and ` +
      `other users share them); by CPU per request, ${WORKERS} free cores would give ${
        (1 / cpuRatio).toFixed(2)
      } × ${WORKERS} (${1 / cpuRatio >= 0.8 ? "met" : "not met"})`,
  );
  // Free cores emulated: each worker gets a CPU budget (0.4 core, or BENCH_WORKER_CORES) (a cgroup quota on the process tree),
  // so wrk and the mock keep about one core to themselves and the gateway never waits for them.
  const unavailable = cpuQuotaUnavailable();
  if (unavailable === null) {
    const perWorker = Number(Deno.env.get("BENCH_WORKER_CORES") ?? 0.4);
    const budgeted = async (n: number, independent = false) => {
      const quota = cpuQuota("gateway-bench-workers", n * perWorker);
      try {
        return await measure(n, config, {}, quota, independent);
      } finally {
        quota.remove();
      }
    };
    const oneB = await budgeted(1);
    const manyB = await budgeted(WORKERS);
    const apart = await budgeted(WORKERS, true);
    const ratio = manyB.rps / oneB.rps / WORKERS;
    const apartRatio = apart.rps / oneB.rps / WORKERS;
    console.log(
      `  with ${perWorker} core of CPU budget per worker (cgroup quota; the rest left to wrk and the mock): ` +
        `1 worker ${oneB.rps.toFixed(0)} req/s (${
          oneB.cpuUs.toFixed(0)
        } µs CPU per request), ${WORKERS} workers ` +
        `${manyB.rps.toFixed(0)} req/s (${manyB.cpuUs.toFixed(0)} µs): ` +
        `${ratio.toFixed(2)} × ${WORKERS} (goal ≥ 0.8 × ${WORKERS}: ${ratio >= 0.8 ? "met" : "not met"}); ` +
        `control: ${WORKERS} gateways sharing nothing but the port, same budget, ${
          apart.rps.toFixed(0)
        } req/s ` +
        `(${apart.cpuUs.toFixed(0)} µs): ` +
        `${apartRatio.toFixed(2)} × ${WORKERS} (what this machine allows; workers reach ${
          (ratio / apartRatio * 100).toFixed(0)
        } % of it)`,
    );
  } else console.log(`  CPU budget per worker skipped: ${unavailable}`);
  if (postgresUnavailable() === null) {
    const pg = await testPostgres();
    const onPg = await measure(1, config, { GATEWAY_DATABASE_URL: await pg.newDatabase() });
    await pg.stop();
    console.log(
      `  1 worker on PostgreSQL: ${onPg.rps.toFixed(0)} req/s, ${onPg.cpuUs.toFixed(0)} µs CPU per request ` +
        `(${(onPg.rps / one.rps).toFixed(2)}× SQLite's req/s, ${
          (onPg.cpuUs / one.cpuUs).toFixed(2)
        }× its CPU per request)`,
    );
    // CPU per request counts the gateway's process (its PostgreSQL bridge thread included), not the
    // PostgreSQL server; the main thread's share is the request path (the event loop).
    const signed = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(0)}`;
    console.log(
      `  goal "PostgreSQL costs the request path nothing": main thread (the request path) ${
        signed(onPg.mainUs - one.mainUs)
      } µs per request (${onPg.mainUs.toFixed(0)} against ${one.mainUs.toFixed(0)}), whole process ${
        signed(onPg.cpuUs - one.cpuUs)
      } µs, req/s ${signed((onPg.rps / one.rps - 1) * 100)} % against SQLite (the PostgreSQL server shares ` +
        `the cores)`,
    );
  } else console.log(`  PostgreSQL skipped: ${postgresUnavailable()}`);
} finally {
  mock.kill("SIGTERM");
  await mock.status;
  await Deno.remove(home, { recursive: true });
}
