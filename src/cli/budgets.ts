import { idArgument, numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway budgets`. */
export const BUDGETS_HELP = `Usage:
  gateway budgets set --daily <usd> [--key <id|name>|--global] [--warn <pct>] [--json]
  gateway budgets list [--json]
  gateway budgets delete <id> [--json]

A budget caps spend per day (midnight in the reporting time zone). Requests over it get HTTP 429.`;

/** `gateway budgets …` */
export function budgetsCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, {
    daily: { type: "string" },
    key: { type: "string" },
    global: { type: "boolean" },
    warn: { type: "string" },
    json: { type: "boolean" },
  }, `budgets ${sub ?? ""}`.trim());
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(BUDGETS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  const config = stringFlag(values, "config");
  switch (sub) {
    case "set": {
      const daily = numberFlag(values, "daily", "budgets set");
      if (daily === undefined) throw new UsageError("budgets set: --daily <usd> is required");
      if (daily <= 0) throw new UsageError("budgets set: --daily must be greater than 0");
      const warn = numberFlag(values, "warn", "budgets set") ?? 80;
      if (warn <= 0 || warn > 100) {
        throw new UsageError("budgets set: --warn must be a percentage from 1 to 100");
      }
      const keyRef = stringFlag(values, "key");
      if (keyRef !== undefined && values.global) {
        throw new UsageError("budgets set: --key and --global conflict");
      }
      return withManagement(config, io, (manage) => {
        const keyId = keyRef === undefined ? null : manage.keys.find(keyRef)?.id;
        if (keyId === undefined) {
          io.err(`gateway: no API key "${keyRef}"`);
          return EXIT_FAILURE;
        }
        const budget = manage.budgets.set(keyId, daily, warn);
        const scope = scopeText(keyId);
        io.out(
          values.json
            ? JSON.stringify({ id: budget.id, scope, daily_limit: daily, warn_pct: warn })
            : `Budget ${budget.id} set: ${scope} daily limit $${daily}, warn at ${warn}%`,
        );
        return EXIT_OK;
      });
    }
    case "list":
      return withManagement(config, io, (manage) => {
        const rows = manage.budgets.report().map((r) => ({
          id: r.budget.id,
          scope: scopeText(r.budget.keyId),
          daily_limit: r.budget.dailyLimit,
          warn_pct: r.budget.warnPct,
          spent_today: r.spentToday,
          percentage: r.percentage,
          status: r.status,
        }));
        if (values.json) io.out(JSON.stringify(rows));
        else if (rows.length === 0) {
          io.out("No budgets. Set one with: gateway budgets set --daily <usd> [--key <id>]");
        } else {
          for (const r of rows) {
            io.out(
              `${String(r.id).padStart(3)}  ${r.scope.padEnd(10)} $${r.daily_limit}  spent $${
                r.spent_today.toFixed(4)
              }  ${r.percentage.toFixed(1)}%  ${r.status}`,
            );
          }
        }
        return EXIT_OK;
      });
    case "delete": {
      const id = idArgument(positionals[0], "budgets delete");
      return withManagement(config, io, (manage) => {
        manage.budgets.delete(id);
        io.out(values.json ? JSON.stringify({ deleted: id }) : `Deleted budget ${id}`);
        return EXIT_OK;
      });
    }
    default:
      throw new UsageError(`budgets: unknown subcommand "${sub}" (set, list, delete)`);
  }
}

function scopeText(keyId: number | null): string {
  return keyId === null ? "global" : `key ${keyId}`;
}
