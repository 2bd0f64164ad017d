import { isErrorLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";

/** Unchanged-line runs longer than this are cut down to their ends. */
export const MAX_CONTEXT_RUN = 6;
const RUN_ENDS = 2;

// Blob ids and modes say nothing a reader of the change needs.
const DROPPED =
  /^(?:index [0-9a-f]+\.\.[0-9a-f]+|old mode |new mode |similarity index |dissimilarity index )/;

function flushContext(run: string[], out: string[]): void {
  if (run.length <= MAX_CONTEXT_RUN) out.push(...run);
  else {
    const middle = run.slice(RUN_ENDS, run.length - RUN_ENDS);
    out.push(...run.slice(0, RUN_ENDS));
    const hidden = middle.filter((line) => !isErrorLine(line));
    out.push(...middle.filter(isErrorLine));
    out.push(` … (${hidden.length} unchanged lines)`);
    out.push(...run.slice(run.length - RUN_ENDS));
  }
  run.length = 0;
}

/** git diff: file and hunk headers and every changed line kept; blob ids dropped; long context cut. */
export const gitDiffFilter: RtkFilter = {
  name: "git_diff",
  truncatable: false,
  detect(lines) {
    const head = lines.slice(0, 60);
    if (head.some((line) => line.startsWith("diff --git "))) return true;
    return head.some((line) => line.startsWith("--- ")) && head.some((line) => line.startsWith("+++ ")) &&
      head.some((line) => line.startsWith("@@ "));
  },
  apply(lines) {
    const out: string[] = [];
    const context: string[] = [];
    let inHunk = false;
    for (const line of lines) {
      if (line.startsWith("diff ") || line.startsWith("@@")) {
        flushContext(context, out);
        inHunk = line.startsWith("@@");
        out.push(line);
      } else if (inHunk && (line.startsWith(" ") || line === "")) context.push(line);
      else {
        flushContext(context, out);
        if (!inHunk && DROPPED.test(line)) continue;
        out.push(line);
      }
    }
    flushContext(context, out);
    return out;
  },
};
