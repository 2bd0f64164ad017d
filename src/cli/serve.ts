import {
  type Config,
  databaseLabel,
  databaseLocation,
  fileExists,
  loadConfig,
  resolveHomePaths,
  writeDefaultConfig,
} from "../config/mod.ts";
import { type ComposedGateway, composeGateway } from "../compose.ts";
import type { UpstreamTimeouts } from "../gateway/dispatch.ts";
import { SecretKeyError, seedFromConfig, Store } from "../storage/mod.ts";
import { numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";
import { superviseWorkers, WORKER_ENV } from "./supervisor.ts";
import { removeListenRecord, writeListenRecord } from "./listen_record.ts";
import { startMallocTrim } from "./malloc_trim.ts";

/** Help text of `gateway serve`. */
export const SERVE_HELP =
  `Usage: gateway serve [--port <port>] [--host <host>] [--config <file>] [--workers <n|auto>]

Starts the gateway. Writes a default config first when none exists. --port and --host override the
config's server section (default 127.0.0.1:20128). --workers runs n gateway processes on the one port
(Linux; "auto" = one per core), sharing the database, cooldowns, budgets and the live dashboard.`;

/** A running gateway. */
export interface RunningGateway {
  readonly url: string;
  readonly config: Config;
  readonly runtime: ComposedGateway["runtime"];
  readonly management: ComposedGateway["management"];
  readonly dashboard: ComposedGateway["dashboard"];
  /**
   * Stops accepting connections and lets in-flight requests finish; past the drain deadline they are
   * ended as if their clients had left (so their rows are still written). Then flushes writes and closes.
   */
  close(): Promise<void>;
  /** Writes queued rows at once and closes the database: the last act before an immediate exit. */
  flushNow(): void;
}

/** Options for starting a gateway in-process (the CLI and the tests use this). */
export interface StartOptions {
  readonly config: Config;
  readonly port?: number;
  readonly host?: string;
  /** The wall clock (ms): taken from the CLI's io at the root, a fixed or stepped clock in tests. */
  readonly now: () => number;
  readonly quiet?: boolean;
  readonly watchIntervalMs?: number;
  readonly timeouts?: UpstreamTimeouts;
  /** Overrides the config's drain deadline (tests). */
  readonly drainTimeoutMs?: number;
  /** Told when the drain deadline passes with requests still in flight. */
  readonly onDrainTimeout?: () => void;
  /** Environment lookup: the process environment from the CLI's io, or what a test gives. */
  readonly env: (name: string) => string | undefined;
  /** This process's name among the processes sharing the database (`worker-2`). */
  readonly processLabel?: string;
  /** Lets other processes listen on the same port (the workers of `serve --workers`). */
  readonly reusePort?: boolean;
}

/** Opens the database, seeds it, builds the app and serves it. */
export function startGateway(options: StartOptions): Promise<RunningGateway> {
  const { now, env } = options;
  // --host and --port win over the file: everything that reports the address (the dashboard's Settings,
  // the Tools cards) reads it from the config. A port of 0 (tests) is only known once listening.
  const config: Config = {
    ...options.config,
    server: {
      ...options.config.server,
      host: options.host ?? options.config.server.host,
      // Port 0 (any free port, as tests ask) is no address to report or export: the file's stays.
      port: options.port || options.config.server.port,
    },
  };
  Deno.mkdirSync(config.paths.home, { recursive: true, mode: 0o700 });
  const store = Store.openWithSecret(
    databaseLocation(config),
    config.paths.secretKeyPath,
    env("GATEWAY_SECRET_KEY"),
  );
  try {
    seedFromConfig(store.db, config, store.box, now());
  } catch (error) {
    store.close();
    throw error;
  }
  const gateway = composeGateway({
    config,
    store,
    now,
    env,
    timeouts: options.timeouts,
    processLabel: options.processLabel,
  });
  const { runtime } = gateway;
  runtime.control.watch(options.watchIntervalMs);
  runtime.cluster.start();
  runtime.rateSync.start();
  const hostname = config.server.host;
  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve({
        hostname,
        port: options.port ?? config.server.port,
        reusePort: options.reusePort,
        onListen: ({ port }) => {
          const url = `http://${hostPort(hostname, port)}`;
          resolve({
            url,
            config,
            runtime,
            management: gateway.management,
            dashboard: gateway.dashboard,
            close: once(async () => {
              gateway.endLiveStreams();
              const drained = server.shutdown();
              if (!await settlesWithin(drained, options.drainTimeoutMs ?? config.server.drainTimeoutMs)) {
                options.onDrainTimeout?.();
                gateway.abortInFlight();
                await settlesWithin(drained, ABORTED_DRAIN_MS);
              }
              // The store is closed (its worker ended) even when closing the gateway failed (database gone).
              try {
                await gateway.close();
              } finally {
                store.close();
              }
            }),
            flushNow() {
              try {
                runtime.writer.flush();
              } finally {
                store.close();
              }
            },
          });
        },
      }, gateway.handler);
    } catch (error) {
      gateway.close().finally(() => store.close());
      reject(error);
    }
  });
}

/** `gateway serve`: runs until SIGINT or SIGTERM, then shuts down cleanly. */
export async function serveCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: "string", short: "p" },
    host: { type: "string" },
    workers: { type: "string" },
  }, "serve");
  if (values.help) {
    io.out(SERVE_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`serve: unexpected argument "${positionals[0]}"`);
  const port = numberFlag(values, "port", "serve");
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new UsageError(`serve: --port must be a whole number from 0 to 65535`);
  }
  const workers = workerCount(stringFlag(values, "workers"));
  const workerId = io.env(WORKER_ENV);
  const paths = resolveHomePaths(stringFlag(values, "config"), {
    GATEWAY_HOME: io.env("GATEWAY_HOME"),
    HOME: io.env("HOME"),
  });
  if (!fileExists(paths.configPath)) {
    writeDefaultConfig(paths.configPath, false);
    io.out(`Wrote default config to ${paths.configPath}`);
  }
  const config = loadConfig(paths, io.env);
  const host = stringFlag(values, "host");
  if (workers > 1 && workerId === undefined) {
    if (Deno.build.os !== "linux") {
      io.err("gateway: --workers needs Linux (SO_REUSEPORT); starting one process");
    } else {
      const serveArgs = [
        ...(stringFlag(values, "config") ? ["--config", stringFlag(values, "config")!] : []),
        ...(host ? ["--host", host] : []),
      ];
      return await superviseWorkers({ workers, serveArgs, port: port ?? config.server.port, io });
    }
  }
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({
      config,
      port,
      host,
      env: io.env,
      now: io.now,
      processLabel: workerId === undefined ? undefined : `worker-${workerId}`,
      reusePort: workerId !== undefined,
      onDrainTimeout: () => io.out(`Drain deadline passed: ending the requests still in flight.`),
    });
  } catch (error) {
    const reason = startFailure(error, config, host ?? config.server.host, port ?? config.server.port);
    if (reason === null) throw error;
    io.err(`gateway: ${reason}`);
    return EXIT_FAILURE;
  }
  const drainSeconds = config.server.drainTimeoutMs / 1000;
  io.out(`gateway listening on ${gateway.url}`);
  writeListenRecord(config.paths.home, { url: gateway.url, pid: Deno.pid, startedAt: io.now() });
  const trimmer = startMallocTrim();
  try {
    return await serveUntilSignal(gateway, io, config, drainSeconds, host, workerId !== undefined);
  } finally {
    trimmer?.stop();
    removeListenRecord(config.paths.home, Deno.pid);
  }
}

/** The start banner (not for workers: their supervisor printed it), then serving until a signal. */
async function serveUntilSignal(
  gateway: RunningGateway,
  io: CliIo,
  config: Config,
  drainSeconds: number,
  host: string | undefined,
  worker: boolean,
): Promise<number> {
  if (worker) return await untilSignal(gateway, io, drainSeconds, true);
  io.out(`  API (OpenAI, Anthropic, Responses): ${gateway.url}/v1`);
  io.out(`  API (Gemini, Ollama):                ${gateway.url}`);
  io.out(`  Dashboard:                           ${gateway.url}/dashboard`);
  io.out(`  Config: ${config.paths.configPath}   Database: ${databaseLabel(config)}`);
  const boundHost = host ?? config.server.host;
  if (!gateway.runtime.control.settings.server_require_api_key && !isLoopbackHost(boundHost)) {
    io.err(
      `gateway: warning: listening on ${boundHost} with require_api_key off: anyone who can reach this ` +
        "address can spend your upstream accounts. Turn it on (gateway settings set server_require_api_key " +
        "true, or the dashboard's Settings) or bind 127.0.0.1.",
    );
  }
  return await untilSignal(gateway, io, drainSeconds);
}

/** Whether a listen host is reachable from this machine only (a name is judged loopback only as localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Serves until SIGTERM or SIGINT, then drains; a second signal writes queued rows and stops at once. A
 * worker of `serve --workers` answers SIGTERM only: its supervisor passes signals on, and Ctrl-C in a
 * terminal reaches the whole process group, which would otherwise count twice.
 */
async function untilSignal(gateway: RunningGateway, io: CliIo, drainSeconds: number, worker = false) {
  const signals: Deno.Signal[] = worker ? ["SIGTERM"] : ["SIGINT", "SIGTERM"];
  const ignore = () => {};
  if (worker) Deno.addSignalListener("SIGINT", ignore);
  const code = await new Promise<number>((resolve) => {
    let received = 0;
    const stop = () => {
      received++;
      if (received > 1) {
        // A second signal means "now": no more draining, but the queued rows are still written.
        for (const signal of signals) Deno.removeSignalListener(signal, stop);
        io.out("Second signal: writing queued rows and stopping now.");
        gateway.flushNow();
        resolve(EXIT_FAILURE);
        return;
      }
      io.out(
        `Shutting down: finishing in-flight requests (up to ${drainSeconds}s) and flushing writes…`,
      );
      gateway.close().then(() => resolve(EXIT_OK), (error) => {
        io.err(`shutdown error: ${(error as Error).message}`);
        resolve(EXIT_FAILURE);
      });
    };
    for (const signal of signals) Deno.addSignalListener(signal, stop);
  });
  if (worker) Deno.removeSignalListener("SIGINT", ignore);
  if (code === EXIT_OK) io.out("Stopped.");
  return code;
}

/** `--workers`: a count, or "auto" for one per core; 1 when absent. */
function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === "auto") return navigator.hardwareConcurrency || 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 256) {
    throw new UsageError(`serve: --workers must be a whole number from 1 to 256, or "auto"`);
  }
  return count;
}

/** How long a drain waits, once in-flight requests were told to end, before closing anyway. */
const ABORTED_DRAIN_MS = 5_000;

/** Whether `promise` settles within `ms` (it keeps running either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work` on the first call only; later calls get the first call's promise. */
function once(work: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => done ??= work();
}

/** A one-line reason for a failure to start that the machine causes, not the gateway (null otherwise). */
function startFailure(error: unknown, config: Config, host: string, port: number): string | null {
  const address = hostPort(host, port);
  if (error instanceof Deno.errors.AddrInUse) {
    return `cannot listen on ${address}: the port is in use (another gateway running? pick one with --port)`;
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return `cannot listen on ${address}: no such address on this machine (check --host)`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return `cannot listen on ${address}: permission denied (ports below 1024 need privileges)`;
  }
  if (error instanceof SecretKeyError) return error.message;
  // node:sqlite errors: a locked, read-only or corrupt database file.
  if (error instanceof Error && (error as { code?: unknown }).code === "ERR_SQLITE_ERROR") {
    return `cannot open the database ${databaseLabel(config)}: ${error.message}`;
  }
  return null;
}

/** `host:port`, with an IPv6 address in brackets. */
function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}
