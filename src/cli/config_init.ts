import { resolveHomePaths, writeDefaultConfig } from "../config/mod.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway config-init`. */
export const CONFIG_INIT_HELP = `Usage: gateway config-init [--path <file>] [--force]

Writes a default, commented config (default: $GATEWAY_HOME/config.yaml, ~/.gateway/config.yaml).
An existing file is never overwritten without --force.`;

/** `gateway config-init` */
export function configInitCommand(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    path: { type: "string" },
    force: { type: "boolean" },
  }, "config-init");
  if (values.help) {
    io.out(CONFIG_INIT_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`config-init: unexpected argument "${positionals[0]}"`);
  const target = stringFlag(values, "path") ?? stringFlag(values, "config");
  const paths = resolveHomePaths(target, { GATEWAY_HOME: io.env("GATEWAY_HOME"), HOME: io.env("HOME") });
  const result = writeDefaultConfig(paths.configPath, values.force === true);
  if (result === "exists") {
    io.err(`Config already exists: ${paths.configPath} (use --force to overwrite)`);
    return EXIT_FAILURE;
  }
  io.out(`${result === "created" ? "Config created" : "Config overwritten"}: ${paths.configPath}`);
  return EXIT_OK;
}
