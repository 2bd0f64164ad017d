/**
 * The flags `keys`, `groups` and `budgets` share for issue 27: rate limits (`--rpm`, `--tpm`,
 * `--max-parallel`, each `none` to inherit), durations (`30d`, `5h`, `90m`), expiry (`--expires 30d`, a
 * date, or `never`) and the group a key joins (`--group <id|name>`, `none` to leave it).
 */
import type { Management } from "../features/mod.ts";
import type { KeyLimits } from "../storage/mod.ts";
import { type ParsedArgs, stringFlag } from "./args.ts";
import { UsageError } from "./io.ts";

/** The option specs of the limit flags. */
export const LIMIT_FLAGS = {
  rpm: { type: "string" },
  tpm: { type: "string" },
  "max-parallel": { type: "string" },
} as const;

const UNITS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** `30d`, `5h`, `90m`, `45s`, `2w` → milliseconds; a UsageError otherwise. */
export function parseDuration(text: string, flag: string, command: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text.trim());
  if (!match) {
    throw new UsageError(`${command}: --${flag} must be a duration like 30d, 5h or 90m, got "${text}"`);
  }
  return Number(match[1]) * UNITS[match[2]];
}

/** The limits given on the command line (only those given; `none` clears one). */
export function limitFlags(values: ParsedArgs["values"], command: string): Partial<KeyLimits> | undefined {
  const out: { -readonly [K in keyof KeyLimits]?: number | null } = {};
  for (const [flag, field] of [["rpm", "rpm"], ["tpm", "tpm"], ["max-parallel", "maxParallel"]] as const) {
    const text = stringFlag(values, flag);
    if (text === undefined) continue;
    if (text === "none") {
      out[field] = null;
      continue;
    }
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) {
      throw new UsageError(
        `${command}: --${flag} must be a whole number of at least 1 or "none", got "${text}"`,
      );
    }
    out[field] = n;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `--expires 30d | 2027-01-31 | never` → epoch ms, null (never), or undefined when absent. */
export function expiresFlag(
  values: ParsedArgs["values"],
  now: number,
  command: string,
): number | null | undefined {
  const text = stringFlag(values, "expires");
  if (text === undefined) return undefined;
  if (text === "never") return null;
  if (/^\d+(\.\d+)?\s*[smhdw]$/.test(text.trim())) return now + parseDuration(text, "expires", command);
  const at = Date.parse(text);
  if (!Number.isFinite(at)) {
    throw new UsageError(`${command}: --expires must be a duration (30d), a date (2027-01-31) or never`);
  }
  return at;
}

/** `--group <id|name>` → the group's id, null for `none`, undefined when absent. */
export function groupFlag(
  values: ParsedArgs["values"],
  manage: Management,
  command: string,
): number | null | undefined {
  const ref = stringFlag(values, "group");
  if (ref === undefined) return undefined;
  if (ref === "none") return null;
  const group = manage.groups.find(ref);
  if (!group) throw new UsageError(`${command}: no key group "${ref}" (see gateway groups list)`);
  return group.id;
}

/** A limit for display: the number, or "-" when unset. */
export function limitText(value: number | null): string {
  return value === null ? "-" : String(value);
}
