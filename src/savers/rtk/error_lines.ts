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
