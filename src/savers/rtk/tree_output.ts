import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";

/** Trees are collapsed level by level until they fit in this many lines. */
export const MAX_TREE_LINES = 200;
const MAX_DEPTH = 6;

const BRANCH = /(├── |└── |\|-- |`-- )/;

function depthOf(line: string): number {
  const match = BRANCH.exec(line);
  // Each tree level indents by four columns ("│   " or "    ").
  return match ? Math.floor(match.index / 4) : -1;
}

function collapse(lines: readonly string[], depths: readonly number[], limit: number): string[] {
  const out: string[] = [];
  let run = 0;
  let prefix = "";
  const flush = () => {
    if (run > 0) out.push(`${prefix}└── … (${run} deeper entries)`);
    run = 0;
  };
  lines.forEach((line, i) => {
    if (depths[i] >= limit && !isErrorLine(line)) {
      if (run === 0) prefix = line.slice(0, limit * 4);
      run++;
    } else {
      flush();
      out.push(line);
    }
  });
  flush();
  return out;
}

/** tree output: levels below the deepest one that fits in 200 lines collapse into counts. */
export const treeOutputFilter: RtkFilter = {
  name: "tree_output",
  truncatable: true,
  detect(lines) {
    let branches = 0;
    for (const line of lines.slice(0, 200)) if (BRANCH.test(line) && ++branches >= 3) return true;
    return false;
  },
  apply(lines) {
    const depths = lines.map(depthOf);
    let best = [...lines];
    for (let limit = MAX_DEPTH; limit >= 1 && best.length > MAX_TREE_LINES; limit--) {
      best = collapse(lines, depths, limit);
    }
    return best;
  },
};
