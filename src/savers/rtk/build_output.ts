import { isErrorLine, isWarningLine } from "./error_lines.ts";
import type { RtkFilter } from "./filter.ts";
import { keepWithGaps } from "./gaps.ts";

/** The last lines of build output are always kept: they carry the outcome. */
export const BUILD_TAIL_LINES = 20;
/** Lines kept after a diagnostic (code frames, `-->` locations). */
const FOLLOW_LINES = 6;

const STRONG_SIGNALS: readonly RegExp[] = [
  /^npm (?:ERR!|error|WARN|warn)\b/m,
  /\berror TS\d+:/,
  /^error(?:\[E\d+\]: |: could not compile)/m,
  /\bBUILD (?:FAILED|SUCCESSFUL|SUCCESS|FAILURE)\b/,
  /^> Task :/m,
  /^\[(?:INFO|WARNING|ERROR)\] /m,
  /^(?:yarn|pnpm) (?:install|add|run|build)/m,
];

const NOISE: readonly RegExp[] = [
  /^\s*(?:Downloading|Downloaded|Compiling|Fresh|Checking|Resolving|Resolved|Fetching|Fetched|Building|Linking|Installing|Installed|Extracting|Unpacking|Progress|Updating|Updated|Locking|Adding|Packaging|Blocking|Waiting|Preparing|Reusing|Copying)\b/,
  /^npm (?:http|timing|sill|silly|verb|info)\b/,
  /^\[INFO\] Download(?:ing|ed)\b/,
  /\b\d{1,3}(?:\.\d+)?%/,
  /[█▓▒░■□#=]{8,}/,
  /^[\s⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏|/\\-]*$/,
  /^\s*\[\d+\/\d+\]/,
];

function isNoise(line: string): boolean {
  for (const pattern of NOISE) if (pattern.test(line)) return true;
  return false;
}

function isDiagnostic(line: string): boolean {
  return isErrorLine(line) || isWarningLine(line);
}

/**
 * Build and package-manager output (npm, yarn, cargo, tsc, maven, gradle): progress and download
 * noise dropped; every error and warning line kept with its code frame; the last 20 lines kept.
 */
export const buildOutputFilter: RtkFilter = {
  name: "build_output",
  truncatable: false,
  detect(lines) {
    const text = lines.join("\n");
    if (STRONG_SIGNALS.some((pattern) => pattern.test(text))) return true;
    let noise = 0;
    for (const line of lines) if (isNoise(line) && ++noise >= 5) return true;
    return false;
  },
  apply(lines) {
    const keep = new Array<boolean>(lines.length).fill(false);
    const tailStart = lines.length - BUILD_TAIL_LINES;
    let follow = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (i >= tailStart || isDiagnostic(line)) {
        keep[i] = true;
        follow = isDiagnostic(line) ? FOLLOW_LINES : 0;
      } else if (follow > 0 && line.trim() !== "" && !isNoise(line)) {
        keep[i] = true;
        follow--;
      } else follow = 0;
    }
    return keepWithGaps(lines, keep);
  },
};
