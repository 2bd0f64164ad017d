import { logLine, useJournald } from "../log.ts";
import type { CliIo } from "./io.ts";

/**
 * The io of a long-running command (`serve` and its workers): every line it prints is a log event with a
 * level (`info` on stdout, `error` on stderr: what a server prints there went wrong), in the same one-line format as the runtime's own events,
 * with journald priorities when the journal is listening.
 */
export function serviceIo(io: CliIo): CliIo {
  const journald = io.env("JOURNAL_STREAM") !== undefined;
  useJournald(journald);
  return {
    ...io,
    out: (line) => io.out(logLine("info", line, journald)),
    err: (line) => io.err(logLine("error", line, journald)),
  };
}
