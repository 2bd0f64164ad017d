/**
 * How the saver corpus decides what a model would need from a tool result, kept apart from the savers'
 * own rules so that the measurement does not grade the savers by their own definition.
 *
 * A line carries information unless it is blank or one of a few kinds of progress chatter (progress
 * bars, npm's request/timing log apart from failed requests, git's usage hints, spinner frames). Its information is its words and
 * its numbers:
 * - words: runs of letters, digits and `_.-` with at least two letters (names, paths, identifiers,
 *   hashes, error words), without plain numbers or numbers with a unit;
 * - numbers: the other runs that hold a digit (status codes, ids, counts, durations like `12ms`, line
 *   numbers, versions like `1.2.3`, addresses), after dates and clock times are taken out: a timestamp
 *   says when a line was printed, and folding repeats that differ only in it is the one thing a saver
 *   may do to a log.
 * A line counts as kept when every one of its words and numbers still appears in the output, anywhere:
 * a saver may regroup lines (grep matches under one path line, find paths under their directory) or
 * fold repeats, but it may not make a word or a value disappear. "Anywhere" is generous to the saver
 * (a dropped `attempt 3` survives when any kept line holds a 3), so this measure can only undercount.
 */

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, "g");

const CHATTER: readonly RegExp[] = [
  /^npm (?:timing|sill|silly|verb)\b|^npm http\b(?! fetch \S+ [45]\d\d\b)/,
  /[█▓▒░■□]{4,}|\[[#=>.\- ]{10,}\]/,
  /^\s+\(use "git /,
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]?\s*$/,
];

// Dates and clock times, in the forms logs print them: ISO 8601, `2026/11/25 14:00:01`, the access-log
// `[25/Nov/2026:14:00:01 +0000]`, and a bare `14:00:01.123`.
const TIMESTAMPS: readonly RegExp[] = [
  /\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g,
  /\d{1,2}\/[A-Z][a-z]{2}\/\d{4}(?::\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?)?/g,
  /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
];

const WORD = /[A-Za-z0-9_.\-]+/g;
const NUMERIC = /^[\d.\-]*\d[a-zµ%]{0,3}$/i;

function clean(line: string): string {
  return line.replace(ANSI, "");
}

function isWord(token: string): boolean {
  return (token.match(/[A-Za-z]/g)?.length ?? 0) >= 2 && !NUMERIC.test(token);
}

/** The words of a line that carry information (see the module comment). */
export function informationWords(line: string): string[] {
  return (clean(line).match(WORD) ?? []).filter(isWord);
}

/**
 * The numeric values of a line (see the module comment): `status=500` gives `500`, `(12ms)` gives
 * `12ms`, `v1.2.3` stays a word; dates and clock times are not values.
 */
export function informationNumbers(line: string): string[] {
  let text = clean(line);
  for (const pattern of TIMESTAMPS) text = text.replace(pattern, " ");
  const out: string[] = [];
  for (const token of text.match(WORD) ?? []) {
    if (isWord(token)) continue;
    // Sentence punctuation and separators around a value are not part of it (`3.` ends a sentence).
    const value = token.replace(/^[._\-]+|[._\-]+$/g, "");
    if (/\d/.test(value)) out.push(value);
  }
  return out;
}

/** True when the line carries information a model could need. */
export function carriesInformation(line: string): boolean {
  const text = clean(line);
  return !CHATTER.some((pattern) => pattern.test(text)) &&
    (informationWords(text).length > 0 || informationNumbers(text).length > 0);
}

/** The information-bearing lines of `input` with at least one word or number missing from `output`. */
export function lostLines(input: string, output: string): string[] {
  const outLines = output.replace(/\r/g, "\n").split("\n");
  const present = new Set(
    outLines.flatMap((line) => [...informationWords(line), ...informationNumbers(line)]),
  );
  const lost: string[] = [];
  for (const line of input.replace(/\r/g, "\n").split("\n")) {
    if (!carriesInformation(line)) continue;
    const tokens = [...informationWords(line), ...informationNumbers(line)];
    if (tokens.some((token) => !present.has(token))) lost.push(line);
  }
  return lost;
}
