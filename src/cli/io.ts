/** Where CLI commands write and what they read from the process, injected so tests run in-process. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly env: (name: string) => string | undefined;
  readonly now: () => number;
  /** Reads one line from standard input (null at its end); absent where nothing can be typed. */
  readonly readLine?: () => Promise<string | null>;
  /** Outbound HTTP for sign-in flows; the global fetch when absent. */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A wrong invocation: the CLI prints the one-line reason and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Exit codes. */
export const EXIT_OK = 0;
/** A command that ran but failed (not found, invalid config). */
export const EXIT_FAILURE = 1;
/** Wrong usage. */
export const EXIT_USAGE = 2;
