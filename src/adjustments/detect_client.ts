import type { ClientKind } from "./target.ts";

/**
 * Which client program sent a request, from its headers (any case) and user agent: Claude Code
 * (`claude-cli`/`claude-code` agent, `x-app: cli`, or a claude-code beta flag), Codex (`codex` in the
 * agent or `originator` header), Gemini CLI (`GeminiCLI`/`gemini-cli` agent), else other.
 */
export function detectClient(headers: Readonly<Record<string, string>>, userAgent: string): ClientKind {
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) lower[key.toLowerCase()] = value.toLowerCase();
  const ua = (userAgent || lower["user-agent"] || "").toLowerCase();
  if (
    ua.includes("claude-cli") || ua.includes("claude-code") || lower["x-app"] === "cli" ||
    (lower["anthropic-beta"] ?? "").includes("claude-code")
  ) return "claude_code";
  if (ua.includes("codex") || (lower["originator"] ?? "").includes("codex")) return "codex";
  if (ua.includes("geminicli") || ua.includes("gemini-cli")) return "gemini_cli";
  return "other";
}
