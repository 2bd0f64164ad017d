import { comboCreate, comboUpdate } from "../features/combos/input.ts";
import { parseInput } from "../features/input.ts";
import type { ComboRecord } from "../storage/mod.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway combos`. */
export const COMBOS_HELP = `Usage:
  gateway combos list [--json]
  gateway combos set <name> <prefix/model> [<prefix/model> …] [--json]
  gateway combos remove <name|id> [--json]
Every subcommand takes --config <file>.

A combo is a model name clients can ask for; the gateway tries its models in order (a fallback chain).
set creates the combo, or replaces the models of the one with that name. A running gateway picks the change
up within seconds.`;

/** `gateway combos …`, through the same combo service as the dashboard. */
export function combosCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(
    rest,
    { json: { type: "boolean" } },
    `combos ${sub ?? ""}`.trim(),
  );
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(COMBOS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  const config = stringFlag(values, "config");
  switch (sub) {
    case "list":
      if (positionals.length > 0) {
        throw new UsageError(`combos list: unexpected argument "${positionals[0]}"`);
      }
      return withManagement(config, io, (manage) => {
        const combos = manage.combos.list().map(comboLine);
        if (values.json) io.out(JSON.stringify(combos));
        else if (combos.length === 0) {
          io.out("No combos. Create one with: gateway combos set <name> <prefix/model> …");
        } else {for (const c of combos) {
            io.out(`${String(c.id).padStart(3)}  ${c.name.padEnd(20)} ${c.models.join(" → ")}`);
          }}
        return EXIT_OK;
      });
    case "set": {
      const [name, ...models] = positionals;
      if (name === undefined) throw new UsageError("combos set: missing <name>");
      const input = parseInput(comboCreate, { name, models });
      return withManagement(config, io, (manage) => {
        const existing = manage.combos.list().find((c) => c.name === input.name);
        const saved = existing === undefined
          ? manage.combos.create(input)
          : manage.combos.update(String(existing.id), parseInput(comboUpdate, { models: input.models }));
        io.out(
          values.json
            ? JSON.stringify(comboLine(saved))
            : `${existing === undefined ? "Created" : "Updated"} combo ${saved.name}: ${
              saved.models.join(" → ")
            }`,
        );
        return EXIT_OK;
      });
    }
    case "remove": {
      const [ref, extra] = positionals;
      if (ref === undefined) throw new UsageError("combos remove: missing <name|id>");
      if (extra !== undefined) throw new UsageError(`combos remove: unexpected argument "${extra}"`);
      return withManagement(config, io, (manage) => {
        const combo = manage.combos.get(ref);
        manage.combos.delete(ref);
        io.out(values.json ? JSON.stringify({ deleted: combo.name }) : `Removed combo ${combo.name}`);
        return EXIT_OK;
      });
    }
    default:
      throw new UsageError(`combos: unknown subcommand "${sub}" (list, set, remove)`);
  }
}

function comboLine(c: ComboRecord) {
  return { id: c.id, name: c.name, models: [...c.models] };
}
