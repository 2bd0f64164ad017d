import type { KeyGroupRecord } from "../storage/mod.ts";
import { csv, parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { LIMIT_FLAGS, limitFlags, limitText } from "./governance_flags.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway groups`. */
export const GROUPS_HELP = `Usage:
  gateway groups create --name <name> [--rpm <n>] [--tpm <n>] [--max-parallel <n>] [--models <csv>] [--json]
  gateway groups list [--json]
  gateway groups update <id|name> [--name <name>] [--rpm <n>|none] [--tpm <n>|none] [--max-parallel <n>|none]
                                  [--models <csv>|--clear-models] [--json]
  gateway groups delete <id|name> [--json]

A key group (a team, a project) bounds its keys: its limits are a per-key ceiling and its model list an
allowlist; a key may only narrow them. Put keys in a group with: gateway keys update <id> --group <name>.
Group budgets: gateway budgets set --group <name> --period week --limit <usd>.`;

/** `gateway groups …` */
export function groupsCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, {
    name: { type: "string" },
    models: { type: "string" },
    "clear-models": { type: "boolean" },
    json: { type: "boolean" },
    ...LIMIT_FLAGS,
  }, `groups ${sub ?? ""}`.trim());
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(GROUPS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  const config = stringFlag(values, "config");
  const command = `groups ${sub}`;
  switch (sub) {
    case "create": {
      const name = stringFlag(values, "name");
      if (!name) throw new UsageError("groups create: --name <name> is required");
      const limits = limitFlags(values, command);
      return withManagement(config, io, (manage) => {
        const group = manage.groups.create({
          name,
          limits,
          allowedModels: csv(stringFlag(values, "models") ?? ""),
        });
        io.out(
          values.json ? JSON.stringify(groupJson(group)) : `Created key group ${group.id}: ${group.name}`,
        );
        return EXIT_OK;
      });
    }
    case "list":
      return withManagement(config, io, (manage) => {
        const groups = manage.groups.list();
        const keys = manage.keys.list().filter((k) => k.status === "active");
        if (values.json) {
          io.out(JSON.stringify(groups.map((g) => ({
            ...groupJson(g),
            keys: keys.filter((k) => k.groupId === g.id).length,
          }))));
        } else if (groups.length === 0) {
          io.out("No key groups. Create one with: gateway groups create --name <name>");
        } else {
          for (const g of groups) {
            io.out([
              String(g.id).padStart(3),
              g.name.padEnd(20),
              `rpm=${limitText(g.limits.rpm)}`,
              `tpm=${limitText(g.limits.tpm)}`,
              `parallel=${limitText(g.limits.maxParallel)}`,
              `models=${g.allowedModels.length === 0 ? "all" : g.allowedModels.join(",")}`,
              `keys=${keys.filter((k) => k.groupId === g.id).length}`,
            ].join("  "));
          }
        }
        return EXIT_OK;
      });
    case "update": {
      const ref = positionals[0];
      if (ref === undefined) throw new UsageError("groups update: missing <id|name>");
      if (values.models !== undefined && values["clear-models"]) {
        throw new UsageError("groups update: --models and --clear-models conflict");
      }
      const limits = limitFlags(values, command);
      const models = values["clear-models"]
        ? []
        : values.models === undefined
        ? undefined
        : csv(String(values.models));
      const name = stringFlag(values, "name");
      if (limits === undefined && models === undefined && name === undefined) {
        throw new UsageError("groups update: nothing to change (see gateway groups --help)");
      }
      return withManagement(config, io, (manage) => {
        const group = manage.groups.find(ref);
        if (!group) return noGroup(io, ref);
        const updated = manage.groups.update(group.id, { name, limits, allowedModels: models });
        io.out(
          values.json
            ? JSON.stringify(groupJson(updated))
            : `Updated key group ${updated.id}: ${updated.name}`,
        );
        return EXIT_OK;
      });
    }
    case "delete": {
      const ref = positionals[0];
      if (ref === undefined) throw new UsageError("groups delete: missing <id|name>");
      return withManagement(config, io, (manage) => {
        const group = manage.groups.find(ref);
        if (!group) return noGroup(io, ref);
        manage.groups.delete(group.id);
        io.out(
          values.json
            ? JSON.stringify({ deleted: group.id })
            : `Deleted key group ${group.id} (its keys stay, ungrouped)`,
        );
        return EXIT_OK;
      });
    }
    default:
      throw new UsageError(`groups: unknown subcommand "${sub}" (create, list, update, delete)`);
  }
}

function noGroup(io: CliIo, ref: string): number {
  io.err(`gateway: no key group "${ref}"`);
  return EXIT_FAILURE;
}

function groupJson(g: KeyGroupRecord) {
  return {
    id: g.id,
    name: g.name,
    rpm: g.limits.rpm,
    tpm: g.limits.tpm,
    max_parallel: g.limits.maxParallel,
    allowed_models: g.allowedModels,
  };
}
