// No leading \b on error/exception so TypeError and NullPointerException count; the trailing one keeps
// identifiers like errorHandler out.
const ERROR_PATTERNS: readonly RegExp[] = [
  /(?:error|exception)s?\b/i,
  /\b(?:fail|fails|failed|failing|failure|fatal|panic|panicked|traceback)\b/i,
  /\bE\d+\b/,
  /error\[/i,
  /\bERR!/,
  /[✗✘]/,
];

/** True when a line looks like an error; RTK filters never drop such a line. */
export function isErrorLine(line: string): boolean {
  for (const pattern of ERROR_PATTERNS) if (pattern.test(line)) return true;
  return false;
}

/** True when a line looks like a warning (build output keeps these too). */
export function isWarningLine(line: string): boolean {
  return /\bwarn(?:ing|ings)?\b/i.test(line);
}

// An HTTP-style 4xx/5xx standing alone (` 500 `, `status=503`, `"GET /x" 404`), not part of a
// duration, size, version, address or counter (`500ms`, `1.404`, `:443`, `404/600`).
const FAILURE_STATUS = /(?<![\w.\-/:])[45]\d\d(?![\w.%:/])/;

/**
 * True for a line that reports something going wrong: an error, a warning or a 4xx/5xx status. How
 * often and when such a line recurs is information, so RTK only folds it into a repeat count when it
 * repeats the line right before it.
 */
export function isTroubleLine(line: string): boolean {
  return isErrorLine(line) || isWarningLine(line) || FAILURE_STATUS.test(line);
}
