import {
  describeSetting,
  resolveSettings,
  SETTING_KEYS,
  validateSetting,
} from "../config/runtime_settings.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { withStore } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway settings`. */
export const SETTINGS_HELP = `Usage:
  gateway settings set <key> <value> [--json]
  gateway settings get [key] [--json]
  gateway settings reset <key> [--json]

Settings (default in brackets):
${SETTING_KEYS.map((k) => `  ${k.padEnd(32)} ${describeSetting(k)}`).join("\n")}

A running gateway picks up changes within 2 seconds.`;

/** `gateway settings …` */
export function settingsCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(
    rest,
    { json: { type: "boolean" } },
    `settings ${sub ?? ""}`.trim(),
  );
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(SETTINGS_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  const config = stringFlag(values, "config");
  switch (sub) {
    case "set": {
      const [key, value, extra] = positionals;
      if (key === undefined || value === undefined) throw new UsageError("settings set: needs <key> <value>");
      if (extra !== undefined) {
        throw new UsageError(`settings set: unexpected argument "${extra}" (quote values with spaces)`);
      }
      const checked = validateSetting(key, value);
      if (!checked.ok) throw new UsageError(`settings set: ${checked.error}`);
      return withStore(config, io, (store) => {
        store.settings.set(key, checked.text);
        io.out(
          values.json ? JSON.stringify({ [key]: parseValue(checked.text) }) : `${key} = ${checked.text}`,
        );
        return EXIT_OK;
      });
    }
    case "get": {
      const [key] = positionals;
      if (key !== undefined && !SETTING_KEYS.includes(key as never)) {
        throw new UsageError(`settings get: unknown setting "${key}"`);
      }
      return withStore(config, io, (store, cfg) => {
        const resolved = resolveSettings(store.settings.all(), cfg.server.requireApiKey) as unknown as Record<
          string,
          unknown
        >;
        const keys = key === undefined ? SETTING_KEYS : [key];
        if (values.json) io.out(JSON.stringify(Object.fromEntries(keys.map((k) => [k, resolved[k]]))));
        else if (key !== undefined) io.out(String(resolved[key]));
        else for (const k of keys) io.out(`${k} = ${resolved[k]}`);
        return EXIT_OK;
      });
    }
    case "reset": {
      const [key] = positionals;
      if (key === undefined || !SETTING_KEYS.includes(key as never)) {
        throw new UsageError(`settings reset: needs a known <key>`);
      }
      return withStore(config, io, (store) => {
        store.settings.delete([key]);
        io.out(values.json ? JSON.stringify({ reset: key }) : `${key} reset to its default`);
        return EXIT_OK;
      });
    }
    default:
      throw new UsageError(`settings: unknown subcommand "${sub}" (set, get, reset)`);
  }
}

function parseValue(text: string): unknown {
  if (text === "true" || text === "false") return text === "true";
  const n = Number(text);
  return text !== "" && Number.isFinite(n) ? n : text;
}
