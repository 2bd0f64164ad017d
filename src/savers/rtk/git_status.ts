import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";

/** Untracked paths listed before the rest are counted. */
export const MAX_UNTRACKED = 20;
/** Paths listed per change state before the rest are counted. */
export const MAX_PER_STATE = 50;

const LONG_MARKERS =
  /^(?:On branch |HEAD detached |Changes not staged for commit:|Changes to be committed:|Untracked files:|Unmerged paths:)/;
const PORCELAIN = /^[ MTADRCU?!]{2} \S/;
const HINT = /^\s+\(use "git /;

function capped(label: string, entries: readonly string[], max: number, indent: string): string[] {
  const out = [`${label} (${entries.length}):`];
  let hidden = 0;
  entries.forEach((entry, i) => {
    if (i < max || isErrorLine(entry)) out.push(`${indent}${entry}`);
    else hidden++;
  });
  if (hidden > 0) out.push(`${indent}… (+${hidden} more)`);
  return out;
}

/** Groups one section's `state:   path` entries by state, in order of first appearance. */
function groupSection(entries: readonly string[], untracked: boolean): string[] {
  if (untracked) return capped("  untracked", entries, MAX_UNTRACKED, "    ");
  const groups = new Map<string, string[]>();
  for (const entry of entries) {
    const match = /^([a-z ]+):\s+(.*)$/.exec(entry);
    const state = match ? match[1] : "changed";
    const path = match ? match[2] : entry;
    const list = groups.get(state) ?? [];
    list.push(path);
    groups.set(state, list);
  }
  const out: string[] = [];
  for (const [state, paths] of groups) out.push(...capped(`  ${state}`, paths, MAX_PER_STATE, "    "));
  return out;
}

function compressLong(lines: readonly string[]): string[] {
  const out: string[] = [];
  let entries: string[] = [];
  let untracked = false;
  const flush = () => {
    if (entries.length > 0) out.push(...groupSection(entries, untracked));
    entries = [];
  };
  for (const line of lines) {
    if (HINT.test(line) || line.trim() === "") continue;
    if (line.startsWith("\t")) entries.push(line.trim());
    else {
      flush();
      untracked = line.startsWith("Untracked files:");
      out.push(line);
    }
  }
  flush();
  return out;
}

const PORCELAIN_LABELS: Readonly<Record<string, string>> = {
  "??": "untracked",
  "!!": "ignored",
};

function compressPorcelain(lines: readonly string[]): string[] {
  const out: string[] = [];
  const groups = new Map<string, string[]>();
  for (const line of lines) {
    if (PORCELAIN.test(line)) {
      const code = line.slice(0, 2);
      const list = groups.get(code) ?? [];
      list.push(line.slice(3));
      groups.set(code, list);
    } else if (line.trim() !== "") out.push(line);
  }
  for (const [code, paths] of groups) {
    const label = PORCELAIN_LABELS[code] ?? `[${code}]`;
    out.push(...capped(label, paths, code === "??" ? MAX_UNTRACKED : MAX_PER_STATE, "  "));
  }
  return out;
}

/** git status (long or porcelain): grouped by state, long untracked lists counted. */
export const gitStatusFilter: RtkFilter = {
  name: "git_status",
  truncatable: false,
  detect(lines) {
    if (lines.slice(0, 40).some((line) => LONG_MARKERS.test(line))) return true;
    const filled = nonEmpty(lines).filter((line) => !line.startsWith("## "));
    return filled.length >= 3 && filled.filter((line) => PORCELAIN.test(line)).length >= filled.length * 0.9;
  },
  apply(lines) {
    return lines.some((line) => LONG_MARKERS.test(line)) ? compressLong(lines) : compressPorcelain(lines);
  },
};
