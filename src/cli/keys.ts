import { keyRole } from "../gateway/identity.ts";
import type { ApiKeyRecord, KeyRole, Store } from "../storage/mod.ts";
import { csv, idArgument, numberFlag, parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement, withStore } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway keys`. */
export const KEYS_HELP = `Usage:
  gateway keys create --name <name> [--no-login] [--models <csv>] [--daily-budget <usd>]
                      [--role admin|viewer] [--json]
  gateway keys list [--json]
  gateway keys update <id> [--name <name>] [--login|--no-login] [--models <csv>|--clear-models]
                           [--role admin|viewer|auto]
                           [--daily-budget <usd>|--clear-budget] [--json]
  gateway keys revoke <id> [--json]

Models are exact ids (<prefix>/<model>), <prefix>/* or combo names; none means all models.
A key that signs in to the dashboard is an administrator, or a viewer (looks, changes nothing); by
default (auto) a key limited to some models is a viewer.
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
    case undefined:
    case "--help":
    case "-h":
      io.out(KEYS_HELP);
      return sub === undefined ? 2 : EXIT_OK;
    default:
      throw new UsageError(`keys: unknown subcommand "${sub}" (create, list, update, revoke)`);
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
  }, "keys create");
  if (values.help) return help(io);
  if (positionals.length > 0) throw new UsageError(`keys create: unexpected argument "${positionals[0]}"`);
  const name = stringFlag(values, "name");
  if (!name) throw new UsageError("keys create: --name <name> is required");
  const dailyBudget = numberFlag(values, "daily-budget", "keys create");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const created = manage.keys.create({
      name,
      canLogin: !values["no-login"],
      role: roleFlag(values, "keys create"),
      allowedModels: csv(stringFlag(values, "models") ?? ""),
      dailyBudget,
    });
    if (values.json) {
      io.out(JSON.stringify({ key: created.plaintext, ...keyJson(created.record, created.dailyBudget) }));
    } else {
      io.out(`API key (shown once, save it now): ${created.plaintext}`);
      io.out(`ID: ${created.record.id}`);
      io.out(`Name: ${created.record.name}`);
      io.out(`Login: ${created.record.canLogin ? "yes" : "no"}`);
      // What the key may do in the dashboard: a key limited to some models is a viewer unless made admin.
      io.out(`Role: ${keyRole(created.record)}${created.record.canLogin ? "" : " (no dashboard login)"}`);
      io.out(`Models: ${modelsText(created.record)}`);
      if (created.dailyBudget !== null) io.out(`Daily budget: $${created.dailyBudget}`);
    }
    return EXIT_OK;
  });
}

function list(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, { json: { type: "boolean" } }, "keys list");
  if (values.help) return help(io);
  return withStore(stringFlag(values, "config"), io, (store) => {
    const keys = store.keys.list();
    if (values.json) {
      io.out(JSON.stringify(keys.map((k) => keyJson(k, budgetOf(store, k.id)))));
      return EXIT_OK;
    }
    if (keys.length === 0) io.out("No API keys yet. Create one with: gateway keys create --name <name>");
    for (const k of keys) {
      const budget = budgetOf(store, k.id);
      io.out(
        [
          String(k.id).padStart(3),
          `${k.prefix}…`,
          k.name.padEnd(20),
          k.status.padEnd(7),
          k.canLogin ? `login/${keyRole(k)}`.padEnd(12) : "api-only    ",
          `models=${modelsText(k)}`,
          budget === null ? "" : `budget=$${budget}`,
        ].join("  ").trimEnd(),
      );
    }
    return EXIT_OK;
  });
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
  if (
    name === undefined && canLogin === undefined && models === undefined && dailyBudget === undefined &&
    role === undefined
  ) {
    throw new UsageError("keys update: nothing to change (see gateway keys --help)");
  }
  return withManagement(stringFlag(values, "config"), io, (manage, store) => {
    const record = manage.keys.update(id, { name, canLogin, allowedModels: models, dailyBudget, role });
    if (values.json) io.out(JSON.stringify(keyJson(record, budgetOf(store, id))));
    else {io.out(
        `Updated key ${id}: name=${record.name} login=${record.canLogin ? "yes" : "no"} models=${
          modelsText(record)
        }`,
      );}
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

function keyJson(k: ApiKeyRecord, dailyBudget: number | null) {
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
