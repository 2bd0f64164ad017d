import { DatabaseSync } from "node:sqlite";
import { type Config, fileExists, type HomePaths, loadConfig, type ProviderConfig } from "../config/mod.ts";
import {
  loadMigrations,
  loadSecretBox,
  sealedSample,
  type SecretBox,
  servedConfig,
  sqliteFacts,
} from "../storage/mod.ts";

/** One finding: fine, worth knowing, or something that must be fixed before the gateway works. */
export interface Finding {
  readonly level: "ok" | "warn" | "fail";
  readonly area: string;
  readonly message: string;
  /** What to do about it (warn and fail). */
  readonly fix?: string;
}

/** What the checks may touch; tests pass a short timeout. */
export interface DoctorOptions {
  readonly env: (name: string) => string | undefined;
  /** How long an upstream connect may take (ms). */
  readonly connectTimeoutMs: number;
}

/** A check that passed. */
export const ok = (area: string, message: string): Finding => ({ level: "ok", area, message });
/** Worth knowing; the gateway still works. */
export const warn = (area: string, message: string, fix: string): Finding => ({
  level: "warn",
  area,
  message,
  fix,
});
/** Must be fixed before the gateway works. */
export const fail = (area: string, message: string, fix: string): Finding => ({
  level: "fail",
  area,
  message,
  fix,
});

/** The config: present and valid; null when it cannot be used (the finding says why). */
export function checkConfig(
  paths: HomePaths,
  options: DoctorOptions,
): { finding: Finding; config: Config | null } {
  if (!fileExists(paths.configPath)) {
    return {
      finding: warn(
        "config",
        `${paths.configPath} does not exist`,
        "run `gateway config-init` (or `gateway serve`, which writes the default config on first start)",
      ),
      config: null,
    };
  }
  try {
    const config = loadConfig(paths, options.env);
    const enabled = config.providers.filter((p) => p.enabled).length;
    return { finding: ok("config", `${paths.configPath} is valid (${enabled} enabled providers)`), config };
  } catch (error) {
    return {
      finding: fail(
        "config",
        (error as Error).message,
        "correct the line named above, then run doctor again",
      ),
      config: null,
    };
  }
}

/** The home folder: it exists (or can be made), the gateway can write in it, and others cannot read it. */
export function checkHome(paths: HomePaths): Finding[] {
  const found: Finding[] = [];
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(paths.home);
  } catch {
    return [
      warn("home", `${paths.home} does not exist yet`, "it is created on first start; or create it now"),
    ];
  }
  if (!info.isDirectory) {
    return [fail("home", `${paths.home} is not a directory`, "point GATEWAY_HOME (or --config) at a folder")];
  }
  const probe = `${paths.home}/.doctor-${crypto.randomUUID()}`;
  try {
    Deno.writeTextFileSync(probe, "", { createNew: true });
    Deno.removeSync(probe);
    found.push(ok("home", `${paths.home} is writable`));
  } catch (error) {
    found.push(fail(
      "home",
      `cannot write in ${paths.home}: ${(error as Error).message}`,
      `give the user running the gateway write access (e.g. chown -R <user> ${paths.home})`,
    ));
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    found.push(warn(
      "home",
      `${paths.home} is readable by other users (mode ${(info.mode & 0o777).toString(8)})`,
      `chmod 700 ${paths.home}: it holds the database and the secret key`,
    ));
  }
  if (fileExists(paths.secretKeyPath)) {
    const mode = Deno.statSync(paths.secretKeyPath).mode;
    if (mode !== null && (mode & 0o077) !== 0) {
      found.push(warn(
        "home",
        `${paths.secretKeyPath} is readable by other users`,
        `chmod 600 ${paths.secretKeyPath}`,
      ));
    }
  }
  return found;
}

/** What the database checks found, and what the database serves when it could be read. */
export interface DatabaseReport {
  readonly findings: Finding[];
  /** The providers and combos in the database; null when it is new, unreadable or its key is missing. */
  readonly served: ReturnType<typeof servedConfig> | null;
}

/** The database: opens, passes SQLite's quick check, and the secret key opens its sealed credentials. */
export function checkDatabase(paths: HomePaths, options: DoctorOptions): DatabaseReport {
  if (!fileExists(paths.dbPath)) {
    return { findings: [ok("database", `${paths.dbPath} will be created on first start`)], served: null };
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(paths.dbPath, { readOnly: true });
  } catch (error) {
    return {
      findings: [
        fail(
          "database",
          `cannot open ${paths.dbPath}: ${(error as Error).message}`,
          "check its owner and mode",
        ),
      ],
      served: null,
    };
  }
  const found: Finding[] = [];
  let served: DatabaseReport["served"] = null;
  try {
    const facts = sqliteFacts(db);
    if (facts.quickCheck !== "ok") {
      return {
        findings: [fail(
          "database",
          `${paths.dbPath} is damaged: ${facts.quickCheck}`,
          "stop the gateway and restore the database from a backup",
        )],
        served: null,
      };
    }
    const version = facts.schema;
    const latest = loadMigrations().at(-1)?.version ?? 0;
    found.push(ok(
      "database",
      version >= latest
        ? `${paths.dbPath} is sound (schema ${version})`
        : `${paths.dbPath} is sound (schema ${version}; migrations up to ${latest} apply on next start)`,
    ));
    const secret = checkSecretKey(paths, options, version > 0 ? sealedSample(db) : undefined);
    found.push(...secret.findings);
    if (version > 0 && secret.box !== null) served = servedConfig(db, secret.box);
  } catch (error) {
    found.push(
      fail("database", (error as Error).message, "see the message; restore from a backup if damaged"),
    );
  } finally {
    db.close();
  }
  return { findings: found, served };
}

/**
 * The secret key opens a sealed credential from the database (`sample`, undefined when none is stored).
 * Throws when the key is wrong (the caller reports it).
 */
export function checkSecretKey(
  paths: HomePaths,
  options: DoctorOptions,
  sample: string | undefined,
): { findings: Finding[]; box: SecretBox | null } {
  const envKey = options.env("GATEWAY_SECRET_KEY");
  // Only checked where a key exists: loading with none would create a key file.
  if (envKey || fileExists(paths.secretKeyPath)) {
    const box = loadSecretBox(paths.secretKeyPath, envKey, sample);
    return { findings: [ok("secret key", sample ? "opens the stored credentials" : "is readable")], box };
  }
  if (sample === undefined) return { findings: [], box: null };
  return {
    findings: [fail(
      "secret key",
      `${paths.secretKeyPath} is missing but the database holds sealed credentials`,
      "restore the key file from a backup or set GATEWAY_SECRET_KEY (every instance needs the same key)",
    )],
    box: null,
  };
}

/** The listening address is free (or already held by a gateway, which is fine). */
export async function checkPort(host: string, port: number): Promise<Finding> {
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  try {
    const listener = Deno.listen({ hostname: host, port });
    listener.close();
    return ok("port", `${address} is free`);
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) {
      return fail(
        "port",
        `cannot listen on ${address}: ${(error as Error).message}`,
        "check server.host and server.port",
      );
    }
  }
  const version = await gatewayVersionAt(address);
  if (version !== null) return ok("port", `${address} is served by a running gateway (${version})`);
  return fail(
    "port",
    `${address} is in use by another program`,
    `stop it (ss -ltnp 'sport = :${port}' shows which) or set server.port`,
  );
}

/**
 * The address a running gateway recorded (`--port`/`--host` may differ from the file): it answers as a
 * gateway. Null when no gateway recorded one, so the caller checks the file's address instead.
 */
export async function checkServedAddress(
  record: { url: string; pid: number } | null,
  alive: (pid: number) => boolean,
): Promise<Finding | null> {
  if (record === null) return null;
  const address = record.url.replace(/^https?:\/\//, "");
  if (!alive(record.pid)) {
    return warn(
      "port",
      `a gateway (process ${record.pid}) recorded ${address} but is no longer running (it did not stop cleanly)`,
      "start it again with gateway serve; the stale record is replaced on start",
    );
  }
  const version = await gatewayVersionAt(address);
  if (version !== null) {
    return ok("port", `${address} is served by the running gateway (process ${record.pid}, ${version})`);
  }
  return fail(
    "port",
    `the gateway (process ${record.pid}) listens on ${address} but does not answer /api/version`,
    "check that the process is not stuck (journalctl -u gateway), or restart it",
  );
}

async function gatewayVersionAt(address: string): Promise<string | null> {
  try {
    const response = await fetch(`http://${address}/api/version`, { signal: AbortSignal.timeout(2000) });
    const body = await response.json() as { version?: unknown };
    return response.ok && typeof body.version === "string" ? body.version : null;
  } catch {
    return null;
  }
}

/**
 * Each enabled provider's host accepts a TCP connection (DNS, routing and firewall are fine). `providers`
 * are the ones served: the database's once it holds any, the YAML's before the first start seeds them.
 */
export async function checkUpstreams(
  providers: readonly ProviderConfig[],
  options: DoctorOptions,
): Promise<Finding[]> {
  const proxy = options.env("HTTPS_PROXY") || options.env("https_proxy") || options.env("HTTP_PROXY") ||
    options.env("http_proxy");
  const enabled = providers.filter((p) => p.enabled);
  if (enabled.length === 0) {
    return [
      warn("upstreams", "no enabled provider", "add one in the dashboard, with the CLI or under providers:"),
    ];
  }
  return await checkHosts(enabled, options, proxy);
}

async function checkHosts(
  providers: readonly ProviderConfig[],
  options: DoctorOptions,
  proxy: string | undefined,
): Promise<Finding[]> {
  return await Promise.all(providers.map(async (provider): Promise<Finding> => {
    const url = new URL(provider.baseUrl);
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const area = `upstream ${provider.id}`;
    try {
      const connection = await withTimeout(Deno.connect({ hostname, port }), options.connectTimeoutMs);
      connection.close();
      return ok(area, `${url.host} accepts connections`);
    } catch (error) {
      const why = proxy ? ` (a proxy is configured; direct connections may be blocked on purpose)` : "";
      return fail(
        area,
        `cannot connect to ${url.host}: ${(error as Error).message}${why}`,
        `check base_url of provider "${provider.id}", DNS and the firewall; or disable the provider`,
      );
    }
  }));
}

function withTimeout<T extends Deno.Conn>(connecting: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // A connection that completes after the timeout is closed, not leaked.
  connecting.then((c) => timer === undefined && c.close(), () => {});
  return Promise.race([connecting, timeout]).finally(() => {
    clearTimeout(timer);
    timer = undefined;
  });
}

/** Metrics: on without a token means only the dashboard can scrape. */
export function checkMetrics(config: Config, options: DoctorOptions): Finding | null {
  if (!config.metrics.enabled) return null;
  if (options.env("GATEWAY_METRICS_TOKEN") || config.metrics.token) {
    return ok("metrics", "/metrics is on, with a token");
  }
  return warn(
    "metrics",
    "/metrics is on without a token: only dashboard access can scrape it",
    "set GATEWAY_METRICS_TOKEN (16+ characters) for Prometheus",
  );
}
