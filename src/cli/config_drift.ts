import { type ConfigDrift, configDrift, describeDrift } from "../config/mod.ts";
import { oauthKind } from "../credentials/mod.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement, withStore } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway config`. */
export const CONFIG_HELP = `Usage:
  gateway config diff [--json]    the YAML's providers and combos against the database's
  gateway config apply [--json]   make the YAML's providers, combos, token savers and pricing the served ones

The YAML seeds the database on the first start only; after that the database (dashboard, CLI) is what
serves, so later YAML edits are not in force until applied. apply replaces providers, combos, saver
settings and pricing overrides with the YAML's in one transaction; keys, budgets, usage, request logs and
other settings stay. A running gateway picks the change up within 2 seconds. Subscription credentials are
not compared (every refresh rotates the stored one).`;

/** `gateway config diff|apply` */
export function configCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(
    rest,
    { json: { type: "boolean" } },
    `config ${sub ?? ""}`.trim(),
  );
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(CONFIG_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`config ${sub}: unexpected argument "${positionals[0]}"`);
  const configFlag = stringFlag(values, "config");
  switch (sub) {
    case "diff":
      return withStore(configFlag, io, (store, config) => {
        const served = { providers: store.providers.list(), combos: store.combos.list() };
        const drift = configDrift(config, served, (p) => oauthKind(p.apiType) === null);
        printDrift(drift, io, values.json === true);
        return EXIT_OK;
      });
    case "apply":
      return withManagement(configFlag, io, (manage) => {
        const report = manage.configFile.reset();
        if (values.json) io.out(JSON.stringify(report));
        else {
          io.out(
            `Applied the YAML: ${report.providers} providers, ${report.combos} combos, ` +
              `${report.pricing} pricing overrides${report.savers ? ", token saver settings" : ""}.`,
          );
        }
        return EXIT_OK;
      });
    default:
      throw new UsageError(`config: unknown subcommand "${sub}" (use diff or apply)`);
  }
}

function printDrift(drift: readonly ConfigDrift[], io: CliIo, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(drift));
    return;
  }
  if (drift.length === 0) {
    io.out("The database serves what the YAML says.");
    return;
  }
  for (const entry of drift) io.out(describeDrift(entry));
  io.out("Apply the YAML with `gateway config apply`, or change the database in the dashboard.");
}
