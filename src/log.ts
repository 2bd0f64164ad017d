/**
 * The gateway's log lines: one line per event, starting with its level (`error: …`, `warn: …`,
 * `info: …`), credential-shaped text redacted, line breaks escaped so a stack or an upstream body never
 * spans lines. Under systemd (stderr connected to the journal, which sets JOURNAL_STREAM) each line also
 * starts with the syslog priority (`<3>`), which journald strips and records, so `journalctl -p warning`
 * filters by it. No timestamps: the journal, container runtimes and log shippers add their own.
 */
import { redactShapes } from "./security/redact.ts";

/** How serious an event is. */
export type LogLevel = "error" | "warn" | "info";

const PRIORITY: Readonly<Record<LogLevel, number>> = { error: 3, warn: 4, info: 6 };
/** A line already formatted here: a level line, or a JSON record (a worker's request line). */
const FORMATTED = /^(?:<\d>)?(?:(?:error|warn|info): |\{)/;

/** Where log lines go; the process entry point switches the journald prefix on. */
const target = { journald: false, write: (line: string) => console.error(line) };

/** Adds the syslog priority prefix journald understands (set when JOURNAL_STREAM is in the environment). */
export function useJournald(on: boolean): void {
  target.journald = on;
}

/**
 * One event as one line. A line that is already formatted (a worker's line relayed by the supervisor)
 * is kept as it is; a leading `gateway: ` (the journal already names the unit) is dropped.
 */
export function logLine(level: LogLevel, message: string, journald = target.journald): string {
  if (FORMATTED.test(message)) return message;
  const text = redactShapes(message.replace(/^gateway: /, "")).replace(/\r?\n/g, "\\n");
  return `${journald ? `<${PRIORITY[level]}>` : ""}${level}: ${text}`;
}

/**
 * Writes one structured record (a JSON object, already redacted) to stderr; `format` is told whether
 * journald listens, so the record can start with its syslog priority.
 */
export function logRecord(format: (journald: boolean) => string): void {
  target.write(format(target.journald));
}

/** Writes one event to stderr. */
export function log(level: LogLevel, message: string): void {
  target.write(logLine(level, message));
}
