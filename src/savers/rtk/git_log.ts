import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";
import { gitDiffFilter } from "./git_diff.ts";
import { keepWithGaps } from "./gaps.ts";

/** Commits shown with author, date, subject and the start of the body. */
export const DETAILED_COMMITS = 20;
/** Commits (detailed ones included) shown at all; later ones are counted. */
export const LISTED_COMMITS = 100;
const BODY_LINES = 3;

const COMMIT_LINE = /^commit [0-9a-f]{7,64}\b/;
// `git log --oneline`, optionally drawn with --graph.
const ONELINE = /^[*|\\/ _.-]*[0-9a-f]{7,64} \S/;
const TRAILER = /^\s*(?:Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Change-Id):/i;

interface Commit {
  readonly header: string;
  readonly meta: string[];
  readonly message: string[];
  readonly diff: string[];
}

function parse(lines: readonly string[]): { preamble: string[]; commits: Commit[] } {
  const preamble: string[] = [];
  const commits: Commit[] = [];
  let current: Commit | undefined;
  for (const line of lines) {
    if (COMMIT_LINE.test(line)) {
      current = { header: line, meta: [], message: [], diff: [] };
      commits.push(current);
    } else if (!current) preamble.push(line);
    else if (current.diff.length > 0 || line.startsWith("diff --git ")) current.diff.push(line);
    else if (current.message.length === 0 && /^[A-Z][A-Za-z]*:/.test(line)) current.meta.push(line);
    else if (line.trim() !== "") current.message.push(line);
  }
  return { preamble, commits };
}

function shortHash(header: string): string {
  return header.slice("commit ".length).split(/\s/)[0].slice(0, 10);
}

function subjectOf(commit: Commit): string {
  return commit.message[0]?.trim() ?? "";
}

function detailed(commit: Commit): string[] {
  const out = [commit.header];
  // Merge: parents are noise next to the subject, which already says what was merged.
  for (const line of commit.meta) if (!line.startsWith("Merge:")) out.push(line);
  const body = commit.message.slice(1);
  if (commit.message.length > 0) out.push(commit.message[0]);
  let shown = 0;
  let hidden = 0;
  for (const line of body) {
    if (isErrorLine(line) || (shown < BODY_LINES && !TRAILER.test(line))) {
      out.push(line);
      shown++;
    } else hidden++;
  }
  if (hidden > 0) out.push(`    … (${hidden} more message lines)`);
  if (commit.diff.length > 0) out.push(...gitDiffFilter.apply(commit.diff));
  return out;
}

function oneLine(commit: Commit): string[] {
  const out = [`${shortHash(commit.header)} ${subjectOf(commit)}`];
  for (const line of commit.message.slice(1)) if (isErrorLine(line)) out.push(line);
  return out;
}

function compressFull(lines: readonly string[]): string[] {
  const { preamble, commits } = parse(lines);
  const out = [...preamble];
  let hidden = 0;
  commits.forEach((commit, i) => {
    if (i < DETAILED_COMMITS) out.push(...detailed(commit));
    else if (i < LISTED_COMMITS || commit.message.some(isErrorLine)) {
      if (hidden > 0) out.push(`… (${hidden} more commits)`);
      hidden = 0;
      out.push(...oneLine(commit));
    } else hidden++;
  });
  if (hidden > 0) out.push(`… (${hidden} more commits)`);
  return out;
}

function compressOneline(lines: readonly string[]): string[] {
  let commits = 0;
  const keep = lines.map((line) => {
    if (ONELINE.test(line)) commits++;
    return commits <= LISTED_COMMITS || isErrorLine(line);
  });
  return keepWithGaps(lines, keep, "more log lines");
}

/** git log: full commits for the newest 20, one line each up to 100, then a count. */
export const gitLogFilter: RtkFilter = {
  name: "git_log",
  truncatable: false,
  detect(lines) {
    if (lines.slice(0, 40).some((line) => COMMIT_LINE.test(line))) return true;
    const filled = nonEmpty(lines);
    if (filled.length < 10) return false;
    return filled.filter((line) => ONELINE.test(line)).length >= filled.length * 0.9;
  },
  apply(lines) {
    return lines.some((line) => COMMIT_LINE.test(line)) ? compressFull(lines) : compressOneline(lines);
  },
};
