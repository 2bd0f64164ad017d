import { runCli } from "../../src/cli/mod.ts";

/** What one in-process CLI run printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

/** Runs the CLI in-process with captured output. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: (name) => env[name],
    now: Date.now,
  });
  return { code, out, err };
}
