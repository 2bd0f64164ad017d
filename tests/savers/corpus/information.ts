/**
 * How the saver corpus decides what a model would need from a tool result, kept apart from the savers'
 * own rules so that the measurement does not grade the savers by their own definition.
 *
 * A line carries information unless it is blank or one of a few kinds of progress chatter (progress
 * bars, npm's request/timing log, git's usage hints, spinner frames). Its information is its words:
 * runs of letters, digits and `_.-` with at least two letters (names, paths, identifiers, ids, error
 * words), without plain numbers or numbers with a unit. A line counts as kept when every one of its
 * words still appears in the output, anywhere: a saver may regroup lines (grep matches under one path
 * line, find paths under their directory) or fold repeats, but it may not make a word disappear.
 */

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, "g");

const CHATTER: readonly RegExp[] = [
  /^npm (?:http|timing|sill|silly|verb)\b/,
  /[█▓▒░■□]{4,}|\[[#=>.\- ]{10,}\]/,
  /^\s+\(use "git /,
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]?\s*$/,
];

const WORD = /[A-Za-z0-9_.\-]+/g;
const NUMERIC = /^[\d.\-]*\d[a-zµ%]{0,3}$/i;

/** The words of a line that carry information (see the module comment). */
export function informationWords(line: string): string[] {
  const words = line.replace(ANSI, "").match(WORD) ?? [];
  return words.filter((word) => (word.match(/[A-Za-z]/g)?.length ?? 0) >= 2 && !NUMERIC.test(word));
}

/** True when the line carries information a model could need. */
export function carriesInformation(line: string): boolean {
  const clean = line.replace(ANSI, "");
  return !CHATTER.some((pattern) => pattern.test(clean)) && informationWords(clean).length > 0;
}

/** The information-bearing lines of `input` with at least one word missing from `output`. */
export function lostLines(input: string, output: string): string[] {
  const present = new Set(informationWords(output.replace(/\r/g, "\n")));
  const lost: string[] = [];
  for (const line of input.replace(/\r/g, "\n").split("\n")) {
    if (!carriesInformation(line)) continue;
    if (informationWords(line).some((word) => !present.has(word))) lost.push(line);
  }
  return lost;
}
