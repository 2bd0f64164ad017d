/**
 * Real coding-assistant CLIs from npm for the e2e tests, installed into one scratch prefix (never
 * globally): `GATEWAY_CLI_PREFIX`, or a folder in the system temp dir. `.ci/run` installs them before the
 * tests; a test run on a machine without them installs them once. Only a failed install (no npm
 * registry) makes the tests that need them skip, and they say why.
 */
import { join } from "node:path";

/** The Codex CLI version the e2e tests run (pinned so a new release cannot change them silently). */
export const CODEX_PACKAGE = "@openai/codex@0.169.0";

/** The Gemini CLI version the Tools-card e2e test feeds its printed setup to. */
export const GEMINI_CLI_PACKAGE = "@google/gemini-cli@0.61.0";

/** The Claude Code version the Tools-card e2e test feeds its printed settings to. */
export const CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code@2.1.197";

/** The Qwen Code version the Tools-card e2e test runs in all three of its modes. */
export const QWEN_CODE_PACKAGE = "@qwen-code/qwen-code@0.15.10";

/** The scratch prefix the CLIs live in. */
export function cliPrefix(): string {
  return Deno.env.get("GATEWAY_CLI_PREFIX") ?? join(Deno.env.get("TMPDIR") ?? "/tmp", "gateway-cli-clients");
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A CLI's binary, installing its package first when missing; or why it is not available. */
export async function cliBinary(
  pkg: string,
  bin: string,
): Promise<{ path: string } | { skip: string }> {
  const prefix = cliPrefix();
  const path = join(prefix, "node_modules", ".bin", bin);
  if (exists(path)) return { path };
  Deno.mkdirSync(prefix, { recursive: true });
  try {
    const out = await new Deno.Command("npm", {
      args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel", "error", pkg],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(240_000),
    }).output();
    if (out.success && exists(path)) return { path };
    const why = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" ");
    return { skip: `npm could not install ${pkg} into ${prefix}: ${why}` };
  } catch (error) {
    return { skip: `npm could not install ${pkg}: ${error instanceof Error ? error.message : error}` };
  }
}
