import { describeSetting, SETTING_KEYS, settingDefaultText } from "../config/runtime_settings.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { type CliIo, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway settings`. */
export const SETTINGS_HELP = `Usage:
  gateway settings set <key> <value> [--json]
  gateway settings get [key] [--json]
  gateway settings reset <key> [--json]

Settings (default in brackets):
${SETTING_KEYS.map((k) => `  ${k.padEnd(32)} ${describeSetting(k)} [${settingDefaultText(k)}]`).join("\n")}

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
      return withManagement(config, io, (manage) => {
        const stored = (manage.settings.apply({ [key]: value }).settings as unknown as SettingValues)[key];
        // A clamped number (retention 10 → 50) is said, not left for the user to notice.
        const clamped = typeof stored === "number" && stored !== Number(value.trim());
        if (values.json) {
          io.out(JSON.stringify(clamped ? { [key]: stored, clamped_from: value } : { [key]: stored }));
        } else {io.out(
            `${key} = ${stored}${clamped ? ` (clamped from ${value.trim()} to the allowed range)` : ""}`,
          );}
        return EXIT_OK;
      });
    }
    case "get": {
      const [key] = positionals;
      if (key !== undefined && !SETTING_KEYS.includes(key as never)) {
        throw new UsageError(`settings get: unknown setting "${key}"`);
      }
      return withManagement(config, io, (manage) => {
        const resolved = manage.settings.resolved() as unknown as SettingValues;
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
      return withManagement(config, io, (manage) => {
        manage.settings.apply({ [key]: null });
        io.out(values.json ? JSON.stringify({ reset: key }) : `${key} reset to its default`);
        return EXIT_OK;
      });
    }
    default:
      throw new UsageError(`settings: unknown subcommand "${sub}" (set, get, reset)`);
  }
}

/** Resolved settings indexed by a key the user typed. */
type SettingValues = Record<string, unknown>;
