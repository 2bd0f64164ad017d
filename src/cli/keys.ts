import { keyRole } from "../gateway/identity.ts";
import type { Management } from "../features/mod.ts";
import type { ApiKeyRecord, KeyRole, Store } from "../storage/mod.ts";
import { csv, idArgument, numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import {
  expiresFlag,
  groupFlag,
  LIMIT_FLAGS,
  limitFlags,
  limitText,
  parseDuration,
} from "./governance_flags.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway keys`. */
export const KEYS_HELP = `Usage:
  gateway keys create --name <name> [--no-login] [--models <csv>] [--daily-budget <usd>]
                      [--role admin|viewer] [--rpm <n>] [--tpm <n>] [--max-parallel <n>]
                      [--group <id|name>] [--expires 30d|<date>] [--json]
  gateway keys list [--json]
  gateway keys update <id> [--name <name>] [--login|--no-login] [--models <csv>|--clear-models]
                           [--role admin|viewer|auto]
                           [--daily-budget <usd>|--clear-budget]
                           [--rpm <n>|none] [--tpm <n>|none] [--max-parallel <n>|none]
                           [--group <id|name>|none] [--expires 30d|<date>|never] [--json]
  gateway keys rotate <id> [--grace 1d] [--json]
  gateway keys revoke <id> [--json]

Models are exact ids (<prefix>/<model>), <prefix>/* or combo names; none means all models.
A key that signs in to the dashboard is an administrator, or a viewer (looks, changes nothing); by
default (auto) a key limited to some models is a viewer.
Rate limits: --rpm requests per minute, --tpm tokens per minute, --max-parallel requests at once; unset
ones come from the key's group, else the rate_limit_default_* settings; a group's are a ceiling.
Rotation gives the key a new secret (same id and settings); the old one works for --grace (default 1d).
Keys are shown once at creation and stored only as SHA-256 hashes.`;

/** `gateway keys …` */
export function keysCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  switch (sub) {
    case "create":
      return create(rest, io);
    case "list":
      return list(rest, io);
    case "update":
      return update(rest, io);
    case "revoke":
      return revoke(rest, io);
    case "rotate":
      return rotate(rest, io);
    case undefined:
    case "--help":
    case "-h":
      io.out(KEYS_HELP);
      return sub === undefined ? 2 : EXIT_OK;
    default:
      throw new UsageError(`keys: unknown subcommand "${sub}" (create, list, update, rotate, revoke)`);
  }
}

function create(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    name: { type: "string" },
    "no-login": { type: "boolean" },
    models: { type: "string" },
    "daily-budget": { type: "string" },
    role: { type: "string" },
    json: { type: "boolean" },
    group: { type: "string" },
    expires: { type: "string" },
    ...LIMIT_FLAGS,
  }, "keys create");
  if (values.help) return help(io);
  if (positionals.length > 0) throw new UsageError(`keys create: unexpected argument "${positionals[0]}"`);
  const name = stringFlag(values, "name");
  if (!name) throw new UsageError("keys create: --name <name> is required");
  const dailyBudget = numberFlag(values, "daily-budget", "keys create");
  const limits = limitFlags(values, "keys create");
  const expiresAt = expiresFlag(values, io.now(), "keys create");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const created = manage.keys.create({
      name,
      canLogin: !values["no-login"],
      role: roleFlag(values, "keys create"),
      allowedModels: csv(stringFlag(values, "models") ?? ""),
      dailyBudget,
      limits,
      expiresAt,
      groupId: groupFlag(values, manage, "keys create"),
    });
    if (values.json) {
      io.out(
        JSON.stringify({ key: created.plaintext, ...keyJson(created.record, created.dailyBudget, manage) }),
      );
    } else {
      io.out(`API key (shown once, save it now): ${created.plaintext}`);
      io.out(`ID: ${created.record.id}`);
      io.out(`Name: ${created.record.name}`);
      io.out(`Login: ${created.record.canLogin ? "yes" : "no"}`);
      // What the key may do in the dashboard: a key limited to some models is a viewer unless made admin.
      io.out(`Role: ${keyRole(created.record)}${created.record.canLogin ? "" : " (no dashboard login)"}`);
      io.out(`Models: ${modelsText(created.record)}`);
      if (created.dailyBudget !== null) io.out(`Daily budget: $${created.dailyBudget}`);
      const r = created.record;
      if (r.groupId !== null) io.out(`Group: ${manage.groups.find(String(r.groupId))?.name ?? r.groupId}`);
      if (r.limits.rpm !== null || r.limits.tpm !== null || r.limits.maxParallel !== null) {
        io.out(
          `Limits: rpm=${limitText(r.limits.rpm)} tpm=${limitText(r.limits.tpm)} parallel=${
            limitText(r.limits.maxParallel)
          }`,
        );
      }
      if (r.expiresAt !== null) io.out(`Expires: ${new Date(r.expiresAt).toISOString()}`);
    }
    return EXIT_OK;
  });
}

function list(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, { json: { type: "boolean" } }, "keys list");
  if (values.help) return help(io);
  return withManagement(stringFlag(values, "config"), io, (manage, store) => {
    const keys = store.keys.list();
    const rows = keys.map((k) => ({
      ...keyJson(k, budgetOf(store, k.id), manage),
      ...listColumns(k, manage, io.now()),
    }));
    if (values.json) {
      io.out(JSON.stringify(rows));
      return EXIT_OK;
    }
    if (keys.length === 0) io.out("No API keys yet. Create one with: gateway keys create --name <name>");
    for (const [i, k] of keys.entries()) {
      const row = rows[i];
      const spend = row.period_spend;
      io.out(
        [
          String(k.id).padStart(3),
          `${k.prefix}…`,
          k.name.padEnd(20),
          k.status.padEnd(7),
          k.canLogin ? `login/${keyRole(k)}`.padEnd(12) : "api-only    ",
          `group=${row.group ?? "-"}`,
          `expires=${
            row.expires_at === null ? "never" : row.expires_at.slice(0, 10) + (row.expired ? "(expired)" : "")
          }`,
          `last-used=${row.last_used_at === null ? "never" : row.last_used_at.slice(0, 16)}`,
          `spend=$${spend.spent.toFixed(4)}/${spend.period}${
            spend.limit === null ? "" : ` of $${spend.limit}`
          }`,
          `models=${modelsText(k)}`,
          row.daily_budget === null ? "" : `budget=$${row.daily_budget}`,
        ].join("  ").trimEnd(),
      );
    }
    return EXIT_OK;
  });
}

/** The governance columns of `keys list`: group, expiry, last use, and this period's spend. */
function listColumns(k: ApiKeyRecord, manage: Management, now: number) {
  const own = manage.budgets.periodReport().filter((r) =>
    r.budget.scope.kind === "key" && r.budget.scope.keyId === k.id
  );
  const order = ["rolling", "day", "week", "month"];
  own.sort((a, b) => order.indexOf(a.budget.period) - order.indexOf(b.budget.period));
  const shortest = own[0];
  const period_spend = shortest === undefined
    ? { period: "day", spent: round(manage.budgets.storedSpendToday()(k.id)), limit: null }
    : { period: shortest.budget.period, spent: round(shortest.status.spent), limit: shortest.budget.limit };
  return {
    expires_at: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
    expired: k.expiresAt !== null && k.expiresAt <= now,
    last_used_at: k.lastUsedAt === null ? null : new Date(k.lastUsedAt).toISOString(),
    period_spend,
  };
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

function update(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    name: { type: "string" },
    login: { type: "boolean" },
    "no-login": { type: "boolean" },
    models: { type: "string" },
    "clear-models": { type: "boolean" },
    "daily-budget": { type: "string" },
    "clear-budget": { type: "boolean" },
    role: { type: "string" },
    json: { type: "boolean" },
    group: { type: "string" },
    expires: { type: "string" },
    ...LIMIT_FLAGS,
  }, "keys update");
  if (values.help) return help(io);
  const id = idArgument(positionals[0], "keys update");
  if (values.login && values["no-login"]) {
    throw new UsageError("keys update: --login and --no-login conflict");
  }
  if (values.models !== undefined && values["clear-models"]) {
    throw new UsageError("keys update: --models and --clear-models conflict");
  }
  if (values["daily-budget"] !== undefined && values["clear-budget"]) {
    throw new UsageError("keys update: --daily-budget and --clear-budget conflict");
  }
  const dailyBudget = values["clear-budget"] ? null : numberFlag(values, "daily-budget", "keys update");
  const models = values["clear-models"]
    ? []
    : values.models === undefined
    ? undefined
    : csv(String(values.models));
  const canLogin = values.login ? true : values["no-login"] ? false : undefined;
  const name = stringFlag(values, "name");
  const role = roleFlag(values, "keys update");
  const limits = limitFlags(values, "keys update");
  const expiresAt = expiresFlag(values, io.now(), "keys update");
  if (
    name === undefined && canLogin === undefined && models === undefined && dailyBudget === undefined &&
    role === undefined && limits === undefined && expiresAt === undefined && values.group === undefined
  ) {
    throw new UsageError("keys update: nothing to change (see gateway keys --help)");
  }
  return withManagement(stringFlag(values, "config"), io, (manage, store) => {
    const record = manage.keys.update(id, {
      name,
      canLogin,
      allowedModels: models,
      dailyBudget,
      role,
      limits,
      expiresAt,
      groupId: groupFlag(values, manage, "keys update"),
    });
    if (values.json) io.out(JSON.stringify(keyJson(record, budgetOf(store, id), manage)));
    else {io.out(
        `Updated key ${id}: name=${record.name} login=${record.canLogin ? "yes" : "no"} models=${
          modelsText(record)
        }`,
      );}
    return EXIT_OK;
  });
}

function rotate(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    grace: { type: "string" },
    json: { type: "boolean" },
  }, "keys rotate");
  if (values.help) return help(io);
  const id = idArgument(positionals[0], "keys rotate");
  const graceText = stringFlag(values, "grace");
  const grace = graceText === undefined
    ? undefined
    : graceText === "0" || graceText === "none"
    ? 0
    : parseDuration(graceText, "grace", "keys rotate");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const { record, plaintext } = manage.keys.rotate(id, grace);
    const until = record.previousValidUntil === null
      ? null
      : new Date(record.previousValidUntil).toISOString();
    if (values.json) io.out(JSON.stringify({ id, key: plaintext, previous_valid_until: until }));
    else {
      io.out(`New API key (shown once, save it now): ${plaintext}`);
      io.out(`ID: ${id} (same name, limits, group and budgets)`);
      io.out(`The previous key works until ${until}`);
    }
    return EXIT_OK;
  });
}

function revoke(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, "keys revoke");
  if (values.help) return help(io);
  const id = idArgument(positionals[0], "keys revoke");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    manage.keys.revoke(id);
    io.out(values.json ? JSON.stringify({ id, status: "revoked" }) : `Revoked key ${id}`);
    return EXIT_OK;
  });
}

function help(io: CliIo): number {
  io.out(KEYS_HELP);
  return EXIT_OK;
}

function budgetOf(store: Store, keyId: number): number | null {
  return store.budgets.forScope(keyId)?.dailyLimit ?? null;
}

function modelsText(k: ApiKeyRecord): string {
  return k.allowedModels.length === 0 ? "all" : k.allowedModels.join(",");
}

function keyJson(k: ApiKeyRecord, dailyBudget: number | null, manage?: Management) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    status: k.status,
    can_login: k.canLogin,
    role: keyRole(k),
    allowed_models: k.allowedModels,
    daily_budget: dailyBudget,
    created_at: new Date(k.createdAt).toISOString(),
    group: k.groupId === null ? null : manage?.groups.find(String(k.groupId))?.name ?? null,
    rpm: k.limits.rpm,
    tpm: k.limits.tpm,
    max_parallel: k.limits.maxParallel,
    expires_at: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
  };
}

/** `--role admin|viewer|auto` (auto: null, the default that follows the allowlist); undefined when absent. */
function roleFlag(values: Record<string, unknown>, command: string): KeyRole | null | undefined {
  const role = values.role;
  if (role === undefined) return undefined;
  if (role === "admin" || role === "viewer") return role;
  if (role === "auto") return null;
  throw new UsageError(`${command}: --role must be admin, viewer or auto`);
}
