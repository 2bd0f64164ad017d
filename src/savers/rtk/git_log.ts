import type { RtkFilter } from "./filter.ts";
import { omittedMarker } from "./gaps.ts";

const COMMIT_LINE = /^commit [0-9a-f]{7,64}\b/;
const TRAILER = /^\s*(Signed-off-by|Co-authored-by|Reviewed-by|Acked-by):\s*(.*)$/i;
const AUTHOR = /^Author:\s*(.*)$/;
const MESSAGE_INDENT = "    ";

/**
 * git log (full format, with or without --stat/-p): every commit, header and message line kept. The
 * message's four-space indent and the blank lines around it go, and a trailer naming the commit's own
 * author again (Signed-off-by: the author) is dropped and counted. Patches inside stay untouched.
 */
export const gitLogFilter: RtkFilter = {
  name: "git_log",
  detect(lines) {
    return lines.slice(0, 40).some((line) => COMMIT_LINE.test(line));
  },
  apply(lines) {
    const out: string[] = [];
    let author = "";
    let inPatch = false;
    const trailers = new Map<string, number>();
    for (const line of lines) {
      if (COMMIT_LINE.test(line)) {
        inPatch = false;
        author = "";
        out.push(line);
        continue;
      }
      if (line.startsWith("diff --git ")) inPatch = true;
      if (inPatch) {
        out.push(line);
        continue;
      }
      const authorMatch = AUTHOR.exec(line);
      if (authorMatch) author = authorMatch[1].trim();
      const trailer = TRAILER.exec(line);
      if (trailer && author !== "" && trailer[2].trim() === author) {
        trailers.set(trailer[1], (trailers.get(trailer[1]) ?? 0) + 1);
        continue;
      }
      if (line.trim() === "") continue;
      out.push(line.startsWith(MESSAGE_INDENT) ? line.slice(MESSAGE_INDENT.length) : line);
    }
    for (const [key, count] of trailers) {
      out.push(omittedMarker(count, `${key} trailers naming the commit's author`));
    }
    return out;
  },
};
