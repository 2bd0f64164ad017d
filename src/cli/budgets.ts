import type { Management } from "../features/mod.ts";
import type { BudgetPeriodKind, BudgetScope, PeriodBudgetRecord } from "../storage/mod.ts";
import { idArgument, numberFlag, parseCommandArgs, type ParsedArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { parseDuration } from "./governance_flags.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway budgets`. */
export const BUDGETS_HELP = `Usage:
  gateway budgets set --daily <usd> [--key <id|name>|--global] [--warn <pct>] [--json]
  gateway budgets set --limit <usd> --period day|week|month|rolling [--window 5h]
                      [--scope key|group|global] [--key <id|name>|--group <id|name>|--global]
                      [--warn <pct>] [--no-hard-stop] [--webhook <url>|none] [--webhook-secret <s>] [--json]
  gateway budgets list [--json]
  gateway budgets delete <id> [--json]

A budget caps spend per period in the reporting time zone: a day (midnight to midnight), a week (Monday
to Monday), a calendar month, or a rolling window (--window 5h, 7d). Requests over a budget get HTTP 429
(--no-hard-stop: only alert). Crossing --warn (default 80 %) or the limit raises a dashboard alert and,
with --webhook, a POST signed with HMAC-SHA256 (x-gateway-signature; a secret is generated and shown once
unless --webhook-secret gives one).`;

/** `gateway budgets …` */
export function budgetsCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, {
    daily: { type: "string" },
    key: { type: "string" },
    global: { type: "boolean" },
    warn: { type: "string" },
    json: { type: "boolean" },
    limit: { type: "string" },
    period: { type: "string" },
    window: { type: "string" },
    scope: { type: "string" },
    group: { type: "string" },
    "no-hard-stop": { type: "boolean" },
    webhook: { type: "string" },
    "webhook-secret": { type: "string" },
  }, `budgets ${sub ?? ""}`.trim());
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(BUDGETS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  const config = stringFlag(values, "config");
  switch (sub) {
    case "set": {
      if (values.daily === undefined) return setPeriod(values, io);
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
        const rows = manage.budgets.periodReport().map(({ budget, status }) => ({
          ...budgetJson(budget, manage),
          spent: Math.round(status.spent * 1e6) / 1e6,
          percentage: status.percentage,
          status: status.status,
          resets_at: new Date(status.resetAt).toISOString(),
          // The daily fields scripts written before other periods existed read.
          ...(budget.period === "day" ? { daily_limit: budget.limit, spent_today: status.spent } : {}),
        }));
        if (values.json) io.out(JSON.stringify(rows));
        else if (rows.length === 0) {
          io.out("No budgets. Set one with: gateway budgets set --daily <usd> [--key <id>]");
        } else {
          for (const r of rows) {
            const period = r.period === "rolling" ? `rolling ${r.window_seconds! / 3600}h` : r.period;
            io.out(
              `${String(r.id).padStart(3)}  ${r.scope_name.padEnd(16)} ${
                period.padEnd(11)
              } $${r.limit}  spent $${r.spent.toFixed(4)}  ${r.percentage.toFixed(1)}%  ${r.status}${
                r.hard_stop ? "" : " (alert only)"
              }${r.webhook_url === null ? "" : "  webhook"}`,
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

/** `budgets set --limit … --period …`: a budget of any period and scope. */
function setPeriod(values: ParsedArgs["values"], io: CliIo): number {
  const command = "budgets set";
  const limit = numberFlag(values, "limit", command);
  if (limit === undefined) throw new UsageError("budgets set: --limit <usd> (or --daily <usd>) is required");
  const period = stringFlag(values, "period") ?? "day";
  if (!["day", "week", "month", "rolling"].includes(period)) {
    throw new UsageError("budgets set: --period must be day, week, month or rolling");
  }
  const windowText = stringFlag(values, "window");
  if (period === "rolling" && windowText === undefined) {
    throw new UsageError("budgets set: a rolling budget needs --window (e.g. 5h, 7d)");
  }
  if (period !== "rolling" && windowText !== undefined) {
    throw new UsageError("budgets set: --window goes with --period rolling");
  }
  const keyRef = stringFlag(values, "key");
  const groupRef = stringFlag(values, "group");
  const scope = stringFlag(values, "scope") ??
    (keyRef !== undefined ? "key" : groupRef !== undefined ? "group" : "global");
  if ([keyRef !== undefined, groupRef !== undefined, values.global === true].filter(Boolean).length > 1) {
    throw new UsageError("budgets set: --key, --group and --global conflict");
  }
  if (scope === "key" && keyRef === undefined) {
    throw new UsageError("budgets set: --scope key needs --key <id|name>");
  }
  if (scope === "group" && groupRef === undefined) {
    throw new UsageError("budgets set: --scope group needs --group <id|name>");
  }
  if (!["key", "group", "global"].includes(scope)) {
    throw new UsageError("budgets set: --scope must be key, group or global");
  }
  const webhook = stringFlag(values, "webhook");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    let budgetScope: BudgetScope = { kind: "global" };
    if (scope === "key") {
      const key = manage.keys.find(keyRef!);
      if (!key) {
        io.err(`gateway: no API key "${keyRef}"`);
        return EXIT_FAILURE;
      }
      budgetScope = { kind: "key", keyId: key.id };
    } else if (scope === "group") {
      const group = manage.groups.find(groupRef!);
      if (!group) {
        io.err(`gateway: no key group "${groupRef}"`);
        return EXIT_FAILURE;
      }
      budgetScope = { kind: "group", groupId: group.id };
    }
    const saved = manage.budgets.setPeriod({
      scope: budgetScope,
      period: period as BudgetPeriodKind,
      rollingMs: windowText === undefined ? null : parseDuration(windowText, "window", command),
      limit,
      warnPct: numberFlag(values, "warn", command),
      hardStop: values["no-hard-stop"] ? false : undefined,
      webhookUrl: webhook === "none" ? null : webhook,
      webhookSecret: stringFlag(values, "webhook-secret"),
    });
    const b = saved.budget;
    if (values.json) {
      io.out(JSON.stringify({
        ...budgetJson(b, manage),
        ...(saved.webhookSecret === undefined ? {} : { webhook_secret: saved.webhookSecret }),
      }));
    } else {
      const span = b.period === "rolling" ? `per ${windowText}` : `per ${b.period}`;
      io.out(
        `Budget ${b.id} set: ${scopeOf(b.scope, manage)} $${b.limit} ${span}, warn at ${b.warnPct}%` +
          (b.hardStop ? "" : " (alert only)"),
      );
      if (saved.webhookSecret !== undefined) {
        io.out(`Webhook signing secret (shown once, save it now): ${saved.webhookSecret}`);
      }
    }
    return EXIT_OK;
  });
}

/** A budget as `--json` prints it (never its webhook secret). */
function budgetJson(budget: PeriodBudgetRecord, manage: Management) {
  return {
    id: budget.id,
    // "global", "key <id>", "group <id>" as scripts always read it; the name beside it.
    scope: scopeId(budget.scope),
    scope_name: scopeOf(budget.scope, manage),
    period: budget.period,
    window_seconds: budget.rollingMs === null ? null : budget.rollingMs / 1000,
    limit: budget.limit,
    warn_pct: budget.warnPct,
    hard_stop: budget.hardStop,
    webhook_url: budget.webhook?.url ?? null,
  };
}

function scopeId(scope: BudgetScope): string {
  return scope.kind === "global"
    ? "global"
    : scope.kind === "key"
    ? `key ${scope.keyId}`
    : `group ${scope.groupId}`;
}

function scopeOf(scope: BudgetScope, manage: Management): string {
  switch (scope.kind) {
    case "global":
      return "global";
    case "key":
      return `key ${manage.keys.find(String(scope.keyId))?.name ?? scope.keyId}`;
    case "group":
      return `group ${manage.groups.find(String(scope.groupId))?.name ?? scope.groupId}`;
  }
}

function scopeText(keyId: number | null): string {
  return keyId === null ? "global" : `key ${keyId}`;
}
