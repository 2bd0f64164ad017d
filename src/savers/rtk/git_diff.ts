import type { RtkFilter } from "./filter.ts";

/**
 * git diff: recognised so that nothing else touches it. Every line of a patch is a change, a header or
 * context an edit has to match, so a diff reaches the model exactly as the tool printed it.
 */
export const gitDiffFilter: RtkFilter = {
  name: "git_diff",
  detect(lines) {
    const head = lines.slice(0, 60);
    if (head.some((line) => line.startsWith("diff --git "))) return true;
    return head.some((line) => line.startsWith("--- ")) && head.some((line) => line.startsWith("+++ ")) &&
      head.some((line) => line.startsWith("@@ "));
  },
  apply(lines) {
    return [...lines];
  },
};
