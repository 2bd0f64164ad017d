/** What the benchmark scripts that start servers and load them with wrk share. */
import { buildServer, SERVER_BUNDLE } from "../build_server.ts";

/**
 * CPU time of a process in ms, all threads, from the scheduler's nanosecond counters. The tick-sampled
 * utime/stime of /proc/<pid>/stat charge a whole 10 ms tick to whoever runs when it fires, which
 * misjudges servers that run in short bursts (it read a chunk-per-write stream through the gateway at
 * 80-90 µs per chunk where these counters read 50-60 µs); and CPU per request moves far less than
 * requests per second when other work shares the machine.
 */
export function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/schedstat`).split(" ")[0]);
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return ns / 1e6;
}

/** The median (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Waits until a benchmark server answers a POST of `body` (any status counts: it is listening), polling
 * every 100 ms for up to 15 s.
 */
export async function waitReady(url: string, body: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await (await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }))
        .body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start`);
}

/**
 * Runs wrk POSTing `body` as JSON (plus `headers`) to `url` with `args` (connections, duration, …), pinned
 * to `cpu` when given, and returns what it printed (stdout, then stderr); each script reads the numbers it needs.
 */
export async function wrkPost(
  url: string,
  body: string,
  args: readonly string[],
  { cpu, headers = {} }: { cpu?: string; headers?: Record<string, string> } = {},
): Promise<string> {
  const lua = await Deno.makeTempFile({ suffix: ".lua" });
  const lines = [
    `wrk.method = "POST"`,
    `wrk.body = ${JSON.stringify(body)}`,
    `wrk.headers["Content-Type"] = "application/json"`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  }
  try {
    await Deno.writeTextFile(lua, lines.join("\n") + "\n");
    const wrk = ["wrk", ...args, "-s", lua, url];
    const command = cpu === undefined
      ? new Deno.Command(wrk[0], { args: wrk.slice(1) })
      : new Deno.Command("taskset", { args: ["-c", cpu, ...wrk] });
    const output = await command.output();
    // stderr after stdout: a script that finds no numbers shows why (wrk missing, a bad URL).
    return new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  } finally {
    await Deno.remove(lua).catch(() => {});
  }
}

const bundles = new Map<string, Promise<string>>();

/**
 * Builds the server bundle of the checkout at `root` (what `deno task serve` and the release binary run)
 * once per bench process, and returns its absolute path. Another root (a baseline checkout) gets its own
 * bundle, built the same way from its own sources.
 */
export function serverBundle(root = new URL("../../", import.meta.url).pathname): Promise<string> {
  const rootUrl = new URL(root.endsWith("/") ? root : `${root}/`, "file:///");
  const outfile = new URL(SERVER_BUNDLE, rootUrl).pathname;
  let built = bundles.get(outfile);
  if (built === undefined) {
    built = buildServer(rootUrl, outfile).then(() => outfile);
    bundles.set(outfile, built);
  }
  return built;
}
