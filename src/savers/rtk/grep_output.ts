import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";

// path:line:text (grep -n, ripgrep) or path:text for paths that look like files.
const NUMBERED = /^([^\s:][^:\n]*?):(\d+):(.*)$/;
const UNNUMBERED = /^([^\s:]+\.[A-Za-z0-9_]+):(.*)$/;

interface Match {
  readonly path: string;
  readonly line?: string;
  readonly text: string;
}

function parseMatch(line: string): Match | undefined {
  const numbered = NUMBERED.exec(line);
  if (numbered && looksLikePath(numbered[1])) {
    return { path: numbered[1], line: numbered[2], text: numbered[3] };
  }
  const plain = UNNUMBERED.exec(line);
  if (plain && !/^https?$/.test(plain[1])) return { path: plain[1], text: plain[2] };
  return undefined;
}

// A file name has a directory or an extension; this keeps `2024-05-01T10:00:00` log lines out, and
// access-log lines (`127.0.0.1 - - [25/Nov/2026 14:00:01] …`), whose "path" would end in the hour.
function looksLikePath(path: string): boolean {
  return /[/.]/.test(path) && !/^\d{4}-\d{2}-\d{2}/.test(path) && !/\s{2}/.test(path) &&
    !/(?:^|[\sT:])\d{1,2}$/.test(path);
}

function renderRun(path: string, matches: readonly Match[]): string[] {
  if (matches.length === 1) {
    const m = matches[0];
    return [`${path}:${m.line !== undefined ? `${m.line}:` : ""}${m.text}`];
  }
  // The path is said once for a run of matches in the same file; every match line stays.
  return [
    `${path} (${matches.length} matches):`,
    ...matches.map((m) => `${m.line !== undefined ? `${m.line}: ` : ""}${m.text}`),
  ];
}

/** grep / ripgrep output: consecutive matches in one file share one path line; every match is kept. */
export const grepOutputFilter: RtkFilter = {
  name: "grep_output",
  detect(lines) {
    const filled = nonEmpty(lines);
    let matches = 0;
    let shaped = 0;
    for (const line of filled) {
      if (parseMatch(line)) {
        matches++;
        shaped++;
      } else if (line === "--") shaped++;
    }
    return matches >= 5 && shaped >= filled.length * 0.6;
  },
  apply(lines) {
    const out: string[] = [];
    let run: Match[] = [];
    const flush = () => {
      if (run.length > 0) out.push(...renderRun(run[0].path, run));
      run = [];
    };
    for (const line of lines) {
      const match = parseMatch(line);
      if (match && (run.length === 0 || run[0].path === match.path)) run.push(match);
      else if (match) {
        flush();
        run.push(match);
      } else {
        flush();
        out.push(line);
      }
    }
    flush();
    return out;
  },
};
