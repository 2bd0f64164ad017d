import { configDrift, describeDrift, resolveHomePaths } from "../config/mod.ts";
import { oauthKind } from "../credentials/mod.ts";
import { isPostgresUrl } from "../storage/mod.ts";
import { numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import {
  checkConfig,
  checkDatabase,
  checkHome,
  checkMetrics,
  checkPort,
  checkServedAddress,
  checkUpstreams,
  type Finding,
  warn,
} from "./doctor_checks.ts";
import { checkPostgres } from "./doctor_postgres.ts";
import { processAlive, readListenRecord } from "./listen_record.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway doctor`. */
export const DOCTOR_HELP = `Usage: gateway doctor [--config <file>] [--timeout <seconds>] [--json]

Checks what the gateway needs before it can serve: the config file, the home folder's permissions, the
database (SQLite, or PostgreSQL from storage.url or GATEWAY_DATABASE_URL: connection, schema, write access)
and secret key, the listening address (the one a running gateway recorded, else the file's), and that every enabled provider the database serves accepts
connections (the YAML's before the first start). Lists YAML providers and combos the database does not
hold as the YAML says (the YAML seeds the database on the first start only; see gateway config diff).
Prints one line per check and what to fix; --json prints {findings, failures, warnings}. Exits 1 when
something must be fixed, 0 otherwise (warnings included). --timeout bounds each upstream connection
attempt (default 5 s).`;

/** `gateway doctor`: runs every check and prints findings with fixes. */
export async function doctorCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { timeout: { type: "string" }, json: { type: "boolean" } },
    "doctor",
  );
  if (values.help) {
    io.out(DOCTOR_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`doctor: unexpected argument "${positionals[0]}"`);
  const timeout = numberFlag(values, "timeout", "doctor") ?? 5;
  if (!(timeout > 0)) throw new UsageError("doctor: --timeout must be more than 0 seconds");
  const options = { env: io.env, connectTimeoutMs: timeout * 1000 };
  const paths = resolveHomePaths(stringFlag(values, "config"), {
    GATEWAY_HOME: io.env("GATEWAY_HOME"),
    HOME: io.env("HOME"),
  });
  const findings: Finding[] = [];
  const { finding, config } = checkConfig(paths, options);
  // The environment's URL wins, as when serving; it is read here too when the config cannot be loaded.
  const envUrl = io.env("GATEWAY_DATABASE_URL");
  const postgresUrl = config?.storage.url ?? (envUrl && isPostgresUrl(envUrl) ? envUrl : null);
  const database = postgresUrl !== null
    ? checkPostgres(postgresUrl, paths, options)
    : checkDatabase(paths, options);
  findings.push(finding, ...checkHome(paths), ...database.findings);
  // Once the database holds providers it is what serves; the YAML only seeds an empty one.
  const served = database.served !== null && database.served.providers.length > 0 ? database.served : null;
  if (config !== null && served !== null) {
    for (const drift of configDrift(config, served, (p) => oauthKind(p.apiType) === null)) {
      findings.push(warn(
        "config",
        describeDrift(drift),
        "see `gateway config diff`; `gateway config apply` makes the YAML's providers and combos the served ones",
      ));
    }
  }
  if (config !== null) {
    const running = await checkServedAddress(readListenRecord(paths.home), processAlive);
    if (running !== null) findings.push(running);
    if (running === null || running.level === "warn") {
      findings.push(await checkPort(config.server.host, config.server.port));
    }
    findings.push(...await checkUpstreams(served?.providers ?? config.providers, options));
    const metrics = checkMetrics(config, options);
    if (metrics !== null) findings.push(metrics);
  } else if (served !== null) {
    findings.push(...await checkUpstreams(served.providers, options));
  }
  const failures = findings.filter((f) => f.level === "fail").length;
  const warnings = findings.filter((f) => f.level === "warn").length;
  if (values.json) {
    io.out(JSON.stringify({ findings, failures, warnings }));
    return failures > 0 ? EXIT_FAILURE : EXIT_OK;
  }
  for (const f of findings) {
    const line = `${f.level.toUpperCase().padEnd(4)}  ${f.area}: ${f.message}`;
    if (f.level === "ok") io.out(line);
    else io.out(`${line}\n      fix: ${f.fix}`);
  }
  io.out(
    failures > 0
      ? `${failures} problem${failures === 1 ? "" : "s"} to fix${
        warnings > 0 ? `, ${warnings} warning(s)` : ""
      }.`
      : `All checks passed${warnings > 0 ? ` with ${warnings} warning(s)` : ""}.`,
  );
  return failures > 0 ? EXIT_FAILURE : EXIT_OK;
}
