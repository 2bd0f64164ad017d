import type { ClientKind } from "./target.ts";

/**
 * Which client program sent a request, from its headers (any case) and user agent: Claude Code
 * (`claude-cli`/`claude-code` agent, `x-app: cli`, or a claude-code beta flag), Codex (`codex` in the
 * agent or `originator` header), Gemini CLI (`GeminiCLI`/`gemini-cli` agent), else other.
 */
export function detectClient(headers: Headers): ClientKind {
  const header = (name: string) => (headers.get(name) ?? "").toLowerCase();
  const ua = header("user-agent");
  if (
    ua.includes("claude-cli") || ua.includes("claude-code") || header("x-app") === "cli" ||
    header("anthropic-beta").includes("claude-code")
  ) return "claude_code";
  if (ua.includes("codex") || header("originator").includes("codex")) return "codex";
  if (ua.includes("geminicli") || ua.includes("gemini-cli")) return "gemini_cli";
  return "other";
}
