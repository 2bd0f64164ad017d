import { ConfigError } from "../config/mod.ts";
import { GATEWAY_VERSION } from "../version.ts";
import { configCommand } from "./config_drift.ts";
import { GatewayError } from "../model/mod.ts";
import { SecretKeyError } from "../storage/mod.ts";
import { configInitCommand } from "./config_init.ts";
import { doctorCommand } from "./doctor.ts";
import { serviceIo } from "./service_io.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./io.ts";
import { auditCommand } from "./audit.ts";
import { budgetsCommand } from "./budgets.ts";
import { combosCommand } from "./combos.ts";
import { logsCommand } from "./logs.ts";
import { dbCommand } from "./db.ts";
import { keysCommand } from "./keys.ts";
import { groupsCommand } from "./groups.ts";
import { providersCommand } from "./providers.ts";
import { serveCommand } from "./serve.ts";
import { settingsCommand } from "./settings.ts";

export type { CliIo } from "./io.ts";

/** Top-level help. */
export const MAIN_HELP = `gateway ${GATEWAY_VERSION}: a multi-format LLM API gateway

Usage: gateway <command> [options]

Commands:
  serve         start the gateway (writes a default config on first run)
  config-init   write a default, commented config file
  config        diff the YAML against the database, or apply the YAML (config diff|apply)
  keys          create, list, update, rotate and revoke API keys (limits, group, expiry)
  groups        create, list, update and delete key groups (teams, projects)
  settings      read and change runtime settings
  budgets       set, list and delete spend limits (day, week, month, rolling; key, group, global)
  doctor        check the config, home, database, port and upstreams; print what to fix
  db            copy the SQLite database into PostgreSQL (migrate-to-postgres)
  providers     list, add, update, remove and test providers; connect (sign in) a subscription provider
  combos        list, set and remove combos (fallback chains under one model name)
  logs          follow the request log in the terminal, filtered (logs tail)
  audit         list the audit log of changes and sign-ins (filters, CSV or JSON Lines)

gateway --version prints the version.
Every command takes --config <file> (default $GATEWAY_HOME/config.yaml, ~/.gateway/config.yaml;
the database lives beside it) and --help.`;

/** Runs one CLI invocation and returns its exit code. */
export async function runCli(argv: readonly string[], cliIo: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  // A server's output is log events (journald, containers); other commands print for people.
  const io = command === "serve" && !rest.includes("--help") && !rest.includes("-h")
    ? serviceIo(cliIo)
    : cliIo;
  try {
    switch (command) {
      case "serve":
        return await serveCommand(rest, io);
      case "config":
        return configCommand(rest, io);
      case "config-init":
        return configInitCommand(rest, io);
      case "keys":
        return keysCommand(rest, io);
      case "settings":
        return settingsCommand(rest, io);
      case "budgets":
        return budgetsCommand(rest, io);
      case "groups":
        return groupsCommand(rest, io);
      case "db":
        return dbCommand(rest, io);
      case "doctor":
        return await doctorCommand(rest, io);
      case "providers":
        return await providersCommand(rest, io);
      case "combos":
        return combosCommand(rest, io);
      case "logs":
        return await logsCommand(rest, io);
      case "audit":
        return auditCommand(rest, io);
      case "--version":
      case "version":
        io.out(GATEWAY_VERSION);
        return EXIT_OK;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(MAIN_HELP);
        return command === undefined ? EXIT_USAGE : EXIT_OK;
      default:
        throw new UsageError(`unknown command "${command}" (run gateway --help)`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`gateway: ${error.message}`);
      return EXIT_USAGE;
    }
    if (error instanceof GatewayError && error.kind === "invalid_request") {
      io.err(`gateway: ${error.message}`);
      return EXIT_USAGE;
    }
    if (error instanceof ConfigError || error instanceof GatewayError || error instanceof SecretKeyError) {
      io.err(`gateway: ${error.message}`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}
