import { utf8Length } from "../measure.ts";
import { buildOutputFilter } from "./build_output.ts";
import type { RtkFilter } from "./filter.ts";
import { findOutputFilter } from "./find_output.ts";
import { gitDiffFilter } from "./git_diff.ts";
import { gitLogFilter } from "./git_log.ts";
import { gitStatusFilter } from "./git_status.ts";
import { grepOutputFilter } from "./grep_output.ts";
import { lsListingFilter } from "./ls_listing.ts";
import { foldRepeats, repetitiveLogFilter } from "./repetitive_log.ts";
import { cleanTerminalText } from "./terminal_text.ts";
import { treeOutputFilter } from "./tree_output.ts";

/** Tool results smaller than this are left alone: short results are read whole, and there is little to gain. */
export const MIN_BYTES = 1024;
/** Tool results with fewer lines than this are left alone too, whatever their size. */
export const MIN_LINES = 20;
/** Tool results larger than this are left alone: scanning them would cost more than it saves. */
export const MAX_BYTES = 10 * 1024 * 1024;
const MAX_JSON_DEPTH = 4;

/**
 * Filters in detection order, first match wins. Strict shapes come first; build output and
 * repetitive logs are recognised by looser signals, so they come last.
 */
export const RTK_FILTERS: readonly RtkFilter[] = [
  gitLogFilter,
  gitDiffFilter,
  gitStatusFilter,
  grepOutputFilter,
  findOutputFilter,
  treeOutputFilter,
  lsListingFilter,
  buildOutputFilter,
  repetitiveLogFilter,
];

/** Which filter recognises `text`, if any (exported for diagnostics and tests). */
export function detectFilter(lines: readonly string[]): RtkFilter | undefined {
  return RTK_FILTERS.find((filter) => filter.detect(lines));
}

// Output no filter recognises (a file read, a test run) is never cut: only runs of byte-identical lines
// and progress lines fold into a count, which loses nothing a model needs.
function compressPlain(text: string): string {
  const lines = cleanTerminalText(text).split("\n");
  if (lines.length < MIN_LINES) return text;
  const filter = detectFilter(lines);
  return (filter ? filter.apply(lines) : foldRepeats(lines, false)).join("\n");
}

function compressJson(value: unknown, depth: number): { value: unknown; changed: boolean } {
  if (typeof value === "string") {
    const next = compressToolOutput(value);
    return next === null ? { value, changed: false } : { value: next, changed: true };
  }
  if (depth >= MAX_JSON_DEPTH || value === null || typeof value !== "object") {
    return { value, changed: false };
  }
  let changed = false;
  if (Array.isArray(value)) {
    const items = value.map((item) => {
      const result = compressJson(item, depth + 1);
      changed ||= result.changed;
      return result.value;
    });
    return { value: changed ? items : value, changed };
  }
  const entries = Object.entries(value).map(([key, item]) => {
    const result = compressJson(item, depth + 1);
    changed ||= result.changed;
    return [key, result.value] as const;
  });
  return { value: changed ? Object.fromEntries(entries) : value, changed };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Shortens one tool result text, or returns null when it cannot be made strictly smaller (or is
 * outside the size gates). JSON is never cut as text, which would break it: long string values inside
 * it are compressed one by one and the JSON re-serialised (Gemini function responses arrive this way).
 */
export function compressToolOutput(text: string): string | null {
  if (text.length < MIN_BYTES / 3) return null;
  const bytes = utf8Length(text);
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) return null;
  const json = parseJson(text);
  let out: string;
  if (json.ok) {
    const result = compressJson(json.value, 0);
    if (!result.changed) return null;
    out = JSON.stringify(result.value);
  } else out = compressPlain(text);
  return utf8Length(out) < bytes ? out : null;
}
