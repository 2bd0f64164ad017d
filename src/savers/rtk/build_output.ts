import type { RtkFilter } from "./filter.ts";
import { keepWithGaps } from "./gaps.ts";
import { isNoise } from "./noise.ts";
import { foldRepeats } from "./repetitive_log.ts";

const STRONG_SIGNALS: readonly RegExp[] = [
  /^npm (?:ERR!|error|WARN|warn|http|timing|sill|verb)\b/m,
  /\[[#=>.\- ]{10,}\]/,
  /^\[INFO\] Download(?:ing|ed) from /m,
];

/**
 * Build and package-manager output (npm, maven, anything with progress bars): progress and download
 * chatter dropped, each run of it marked; byte-identical repeats and line-by-line progress counted as
 * anywhere else; every other line kept, errors, warnings and summaries included.
 */
export const buildOutputFilter: RtkFilter = {
  name: "build_output",
  detect(lines) {
    const text = lines.slice(0, 400).join("\n");
    if (STRONG_SIGNALS.some((pattern) => pattern.test(text))) return true;
    let noise = 0;
    for (const line of lines) if (isNoise(line) && ++noise >= 5) return true;
    return false;
  },
  apply(lines) {
    return foldRepeats(
      keepWithGaps(lines, lines.map((line) => !isNoise(line)), "progress/download lines"),
      false,
    );
  },
};
