/**
 * A throwaway PostgreSQL server for tests: `initdb` in a temp folder, `pg_ctl start` on a free loopback
 * port (run as the `postgres` user when the tests run as root, as PostgreSQL refuses root), stopped and
 * removed after. A PostgreSQL-backed test declares `ignore: postgresSkip(name)`: where the Debian binaries
 * are missing it is ignored and prints why (CI installs them, so there they run).
 */
import { join } from "node:path";

/** A running test server. */
export interface TestPostgres {
  /** A URL to a fresh, empty database of its own. */
  newDatabase(): Promise<string>;
  /** Stops the server (connections drop, connects are refused) without removing its data. */
  pause(): Promise<void>;
  /** Starts it again on the same port after `pause`. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function binDir(): string | null {
  try {
    const versions = [...Deno.readDirSync("/usr/lib/postgresql")].map((e) => e.name).sort();
    const dir = `/usr/lib/postgresql/${versions.at(-1)}/bin`;
    Deno.statSync(join(dir, "initdb"));
    return dir;
  } catch {
    return null;
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function run(command: string, args: string[], asPostgres: boolean): Promise<void> {
  const result = await new Deno.Command(asPostgres ? "runuser" : command, {
    args: asPostgres ? ["-u", "postgres", "--", command, ...args] : args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    throw new Error(`${command} failed: ${new TextDecoder().decode(result.stderr)}`);
  }
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailable(): string | null {
  return binDir() === null
    ? "PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)"
    : null;
}

/**
 * True (after printing one line naming the test and the reason) when PostgreSQL tests cannot run here,
 * so a skipped test is never silent; false when they can.
 */
export function postgresSkip(test: string): boolean {
  const reason = postgresUnavailable();
  if (reason === null) return false;
  console.warn(`SKIPPED on PostgreSQL: ${test}: ${reason}`);
  return true;
}

let shared: Promise<TestPostgres> | undefined;

/** One server per test process (starting one takes a second or two); each test takes its own database. */
export function testPostgres(): Promise<TestPostgres> {
  return shared ??= startPostgres();
}

async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (bin === null) throw new Error(postgresUnavailable()!);
  const root = Deno.uid() === 0;
  const dir = await Deno.makeTempDir({ prefix: "gateway-pg-" });
  if (root) await run("chown", ["postgres", dir], false);
  const data = join(dir, "data");
  await run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "gw", "--no-sync"], root);
  const port = freePort();
  const start = () =>
    run(join(bin, "pg_ctl"), [
      "-D",
      data,
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      "-l",
      join(dir, "log"),
      "-w",
      "start",
    ], root);
  await start();
  let count = 0;
  const stop = async () => {
    await run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], root).catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  globalThis.addEventListener("unload", () => {
    // Best effort when a test file ends without calling stop: the server is stopped.
    new Deno.Command(root ? "runuser" : join(bin, "pg_ctl"), {
      args: root
        ? ["-u", "postgres", "--", join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]
        : ["-D", data, "-m", "immediate", "stop"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    // And its files: one cluster per test module, so a PostgreSQL pass would otherwise leave gigabytes.
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already removed by stop() */ }
  });
  return {
    async newDatabase() {
      const name = `gw_test_${Deno.pid}_${++count}`;
      await run(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "gw", name], root);
      return `postgres://gw@127.0.0.1:${port}/${name}`;
    },
    pause: () => run(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"], root),
    resume: start,
    stop,
  };
}
