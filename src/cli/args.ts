import { parseArgs } from "node:util";
import { UsageError } from "./io.ts";

type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed flags and positionals of one command. */
export interface ParsedArgs {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** Strict flag parsing: an unknown flag or a missing value is a UsageError naming it. */
export function parseCommandArgs(args: readonly string[], options: OptionSpec, command: string): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: joinStringValues(args, { ...options, config: { type: "string" } }).map(hideNegative),
      options: { ...options, help: { type: "boolean", short: "h" }, config: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
    return {
      values: values as Record<string, string | boolean | undefined>,
      positionals: positionals.map(showNegative),
    };
  } catch (error) {
    const message = (error as Error).message.split("\n")[0].replace(/\. To specify a positional.*$/, "");
    throw new UsageError(`${command}: ${message}`);
  }
}

/** Reads a string flag. */
export function stringFlag(values: ParsedArgs["values"], name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

/** Parses a positive number flag or throws a UsageError. */
export function numberFlag(values: ParsedArgs["values"], name: string, command: string): number | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) {
    throw new UsageError(`${command}: --${name} must be a number, got "${text}"`);
  }
  return n;
}

/** Parses a positive integer id positional or throws a UsageError. */
export function idArgument(text: string | undefined, command: string): number {
  if (text === undefined) throw new UsageError(`${command}: missing <id>`);
  if (!/^\d+$/.test(text)) throw new UsageError(`${command}: <id> must be a whole number, got "${text}"`);
  return Number(text);
}

/** Splits a comma-separated list, dropping blanks. */
export function csv(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * A negative number given as a positional (`settings set x -5`) would be read as a short flag; it is
 * carried through the parser under a marker no typed argument can contain, then restored.
 */
const NEGATIVE_MARK = "\u0000negative:";
const NEGATIVE_NUMBER = /^-(\d+(\.\d*)?|\.\d+)$/;

function hideNegative(arg: string): string {
  return NEGATIVE_NUMBER.test(arg) ? NEGATIVE_MARK + arg : arg;
}

function showNegative(arg: string): string {
  return arg.startsWith(NEGATIVE_MARK) ? arg.slice(NEGATIVE_MARK.length) : arg;
}

/** Joins `--flag value` into `--flag=value` for string flags, so values like "-1" are not taken for flags. */
function joinStringValues(args: readonly string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith("--") && !args[i].includes("=") ? args[i].slice(2) : undefined;
    if (name !== undefined && options[name]?.type === "string" && i + 1 < args.length) {
      out.push(`${args[i]}=${args[++i]}`);
    } else out.push(args[i]);
  }
  return out;
}
