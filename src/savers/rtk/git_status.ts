import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";
import { omittedMarker } from "./gaps.ts";

const LONG_MARKERS =
  /^(?:On branch |HEAD detached |Changes not staged for commit:|Changes to be committed:|Untracked files:|Unmerged paths:)/;
const PORCELAIN = /^[ MTADRCU?!]{2} \S/;
const HINT = /^\s+\(use "git /;

function compressLong(lines: readonly string[]): string[] {
  const out: string[] = [];
  let hints = 0;
  for (const line of lines) {
    if (HINT.test(line)) hints++;
    else if (line.trim() !== "") out.push(line);
  }
  if (hints > 0) out.push(omittedMarker(hints, 'git usage hints ("use git add …")'));
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
    out.push(`${label} (${paths.length}):`, ...paths.map((path) => `  ${path}`));
  }
  return out;
}

/** git status: usage hints counted instead of shown (long form), paths grouped by state (porcelain). */
export const gitStatusFilter: RtkFilter = {
  name: "git_status",
  detect(lines) {
    if (lines.slice(0, 40).some((line) => LONG_MARKERS.test(line))) return true;
    const filled = nonEmpty(lines).filter((line) => !line.startsWith("## "));
    return filled.length >= 3 && filled.filter((line) => PORCELAIN.test(line)).length >= filled.length * 0.9;
  },
  apply(lines) {
    return lines.some((line) => LONG_MARKERS.test(line)) ? compressLong(lines) : compressPorcelain(lines);
  },
};
