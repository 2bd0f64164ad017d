import type { CliIo } from "./io.ts";
import { EXIT_FAILURE, EXIT_OK } from "./io.ts";
import { V8_FLAGS_ARG } from "./v8_flags.ts";
import { mallocEnv } from "./malloc_env.ts";

/** The environment variable that makes a `gateway serve` process one worker of a supervisor. */
export const WORKER_ENV = "GATEWAY_WORKER_ID";
/** A worker that dies on its own is started again after this long (never in a tight loop). */
const RESTART_DELAY_MS = 1_000;

/** What the supervisor needs to start its workers. */
export interface SupervisorOptions {
  readonly workers: number;
  /** `serve` arguments without --workers and --port (config, host). */
  readonly serveArgs: readonly string[];
  readonly port: number;
  readonly io: CliIo;
}

interface Worker {
  readonly id: number;
  child: Deno.ChildProcess;
}

/**
 * `serve --workers N`: N gateway processes listening on one port with SO_REUSEPORT (the kernel spreads
 * connections over them), sharing the database; the supervisor only starts, restarts and stops them.
 * The first worker binds the port (0 picks a free one); the others join it. Signals are passed on, so
 * SIGTERM drains every worker and the second signal flushes and stops them.
 */
export async function superviseWorkers(options: SupervisorOptions): Promise<number> {
  const { io } = options;
  let stopping = false;
  // Workers run with the allocator setting `deno task serve` has (malloc_env.ts), unless the operator set it.
  const allocator = mallocEnv(io.env);
  const spawnWorker = (id: number, serveArgs: readonly string[], port: number) =>
    spawnProcess({ ...allocator, [WORKER_ENV]: String(id) }, serveArgs, port);
  const first = spawnWorker(1, options.serveArgs, options.port);
  const url = await listeningUrl(first, io);
  if (url === null) {
    io.err("gateway: the first worker did not start (see its output above)");
    return (await first.status).code || EXIT_FAILURE;
  }
  const port = Number(new URL(url).port);
  const workers: Worker[] = [{ id: 1, child: first }];
  for (let id = 2; id <= options.workers; id++) {
    const child = spawnWorker(id, options.serveArgs, port);
    if (await listeningUrl(child, io) === null) io.err(`gateway: worker ${id} did not start`);
    workers.push({ id, child });
  }
  io.out(`gateway listening on ${url} with ${options.workers} workers`);
  io.out(`  Dashboard: ${url}/dashboard`);

  const exited = workers.map((worker) => watch(worker));
  function watch(worker: Worker): Promise<number> {
    return worker.child.status.then(async (status) => {
      if (stopping) return status.code;
      io.err(`gateway: worker ${worker.id} exited (code ${status.code}); starting it again`);
      await new Promise((r) => setTimeout(r, RESTART_DELAY_MS));
      if (stopping) return status.code;
      worker.child = spawnWorker(worker.id, options.serveArgs, port);
      forwardOutput(worker.child, io);
      return watch(worker);
    });
  }

  const onSignal = () => {
    if (!stopping) io.out(`Shutting down ${workers.length} workers…`);
    stopping = true;
    for (const worker of workers) {
      try {
        worker.child.kill("SIGTERM");
      } catch { /* already gone */ }
    }
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const codes = await Promise.all(exited);
  Deno.removeSignalListener("SIGINT", onSignal);
  Deno.removeSignalListener("SIGTERM", onSignal);
  const failed = codes.some((code) => code !== EXIT_OK);
  io.out(failed ? "Stopped (a worker reported an error)." : "Stopped.");
  return failed ? EXIT_FAILURE : EXIT_OK;
}

/** The command that runs this program again: the compiled binary itself, or `deno run` on the entry. */
function selfCommand(): { command: string; prefix: string[] } {
  if (Deno.build.standalone) return { command: Deno.execPath(), prefix: [] };
  return { command: Deno.execPath(), prefix: ["run", "-A", "--unstable-net", V8_FLAGS_ARG, Deno.mainModule] };
}

/** One worker process with `env` added to the supervisor's own environment. */
function spawnProcess(
  env: Record<string, string>,
  serveArgs: readonly string[],
  port: number,
): Deno.ChildProcess {
  const { command, prefix } = selfCommand();
  return new Deno.Command(command, {
    args: [...prefix, "serve", ...serveArgs, "--port", String(port)],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads a new worker's output until it says where it listens (null if it exits first); then relays the rest. */
async function listeningUrl(child: Deno.ChildProcess, io: CliIo): Promise<string | null> {
  const stdout = lines(child.stdout);
  const reader = stdout.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      relayLines(lines(child.stderr), io.err);
      return null;
    }
    const match = /listening on (http:\/\/\S+)/.exec(value);
    if (match) {
      reader.releaseLock();
      relayLines(stdout, io.out);
      relayLines(lines(child.stderr), io.err);
      return match[1];
    }
    io.out(value);
  }
}

function forwardOutput(child: Deno.ChildProcess, io: CliIo): void {
  relayLines(lines(child.stdout), io.out);
  relayLines(lines(child.stderr), io.err);
}

function lines(stream: ReadableStream<Uint8Array>): ReadableStream<string> {
  return stream.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(lineSplitter());
}

/** Copies a worker's output lines to ours until the worker closes it. */
function relayLines(stream: ReadableStream<string>, write: (line: string) => void): void {
  (async () => {
    try {
      for await (const line of stream) write(line);
    } catch { /* the worker is gone */ }
  })();
}

function lineSplitter(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream<string, string>({
    transform(chunk, controller) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) controller.enqueue(line);
    },
    flush(controller) {
      if (rest !== "") controller.enqueue(rest);
    },
  });
}
