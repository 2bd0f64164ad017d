import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";

/** Matches listed per file before the rest are counted. */
export const MAX_MATCHES_PER_FILE = 10;
/** Longer match lines (minified files) are cut to this many characters. */
export const MAX_MATCH_CHARS = 300;

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

// A file name has a directory or an extension; this keeps `2024-05-01T10:00:00` log lines out.
function looksLikePath(path: string): boolean {
  return /[/.]/.test(path) && !/^\d{4}-\d{2}-\d{2}/.test(path) && !/\s{2}/.test(path);
}

function clip(text: string): string {
  return text.length > MAX_MATCH_CHARS ? `${text.slice(0, MAX_MATCH_CHARS)}…` : text;
}

type Block = { readonly kind: "file"; readonly path: string; readonly matches: Match[] } | {
  readonly kind: "other";
  readonly line: string;
};

function renderFile(path: string, matches: readonly Match[]): string[] {
  if (matches.length === 1) {
    const m = matches[0];
    return [`${path}:${m.line !== undefined ? `${m.line}:` : ""}${clip(m.text)}`];
  }
  const out = [`${path} (${matches.length} matches):`];
  let hidden = 0;
  matches.forEach((m, i) => {
    if (i < MAX_MATCHES_PER_FILE || isErrorLine(m.text)) {
      out.push(`  ${m.line !== undefined ? `${m.line}: ` : ""}${clip(m.text)}`);
    } else hidden++;
  });
  if (hidden > 0) out.push(`  … (+${hidden} more matches in ${path})`);
  return out;
}

/** grep / ripgrep output: matches grouped by file, every file path kept, matches per file capped. */
export const grepOutputFilter: RtkFilter = {
  name: "grep_output",
  truncatable: false,
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
    const blocks: Block[] = [];
    const files = new Map<string, Match[]>();
    for (const line of lines) {
      const match = parseMatch(line);
      if (!match) {
        // `--` separates context groups; grouping by file makes it meaningless.
        if (line !== "--" && line.trim() !== "") blocks.push({ kind: "other", line });
        continue;
      }
      const known = files.get(match.path);
      if (known) known.push(match);
      else {
        const fresh = [match];
        files.set(match.path, fresh);
        blocks.push({ kind: "file", path: match.path, matches: fresh });
      }
    }
    return blocks.flatMap((block) =>
      block.kind === "file" ? renderFile(block.path, block.matches) : [block.line]
    );
  },
};
