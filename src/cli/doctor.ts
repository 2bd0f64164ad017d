import { resolveHomePaths } from "../config/mod.ts";
import { isPostgresUrl } from "../storage/mod.ts";
import { numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import {
  checkConfig,
  checkDatabase,
  checkHome,
  checkMetrics,
  checkPort,
  checkUpstreams,
  type Finding,
} from "./doctor_checks.ts";
import { checkPostgres } from "./doctor_postgres.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway doctor`. */
export const DOCTOR_HELP = `Usage: gateway doctor [--config <file>] [--timeout <seconds>]

Checks what the gateway needs before it can serve: the config file, the home folder's permissions, the
database (SQLite, or PostgreSQL from storage.url or GATEWAY_DATABASE_URL: connection, schema, write access)
and secret key, the listening port, and that every enabled provider's host accepts connections.
Prints one line per check and what to fix. Exits 1 when something must be fixed, 0 otherwise (warnings
included). --timeout bounds each upstream connection attempt (default 5 s).`;

/** `gateway doctor`: runs every check and prints findings with fixes. */
export async function doctorCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { timeout: { type: "string" } }, "doctor");
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
  findings.push(
    finding,
    ...checkHome(paths),
    ...(postgresUrl !== null ? checkPostgres(postgresUrl, paths, options) : checkDatabase(paths, options)),
  );
  if (config !== null) {
    findings.push(await checkPort(config.server.host, config.server.port));
    findings.push(...await checkUpstreams(config, options));
    const metrics = checkMetrics(config, options);
    if (metrics !== null) findings.push(metrics);
  }
  for (const f of findings) {
    const line = `${f.level.toUpperCase().padEnd(4)}  ${f.area}: ${f.message}`;
    if (f.level === "ok") io.out(line);
    else io.out(`${line}\n      fix: ${f.fix}`);
  }
  const failures = findings.filter((f) => f.level === "fail").length;
  const warnings = findings.filter((f) => f.level === "warn").length;
  io.out(
    failures > 0
      ? `${failures} problem${failures === 1 ? "" : "s"} to fix${
        warnings > 0 ? `, ${warnings} warning(s)` : ""
      }.`
      : `All checks passed${warnings > 0 ? ` with ${warnings} warning(s)` : ""}.`,
  );
  return failures > 0 ? EXIT_FAILURE : EXIT_OK;
}
