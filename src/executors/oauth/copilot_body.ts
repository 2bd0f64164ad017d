/** The chat-completions body adjustments Copilot's API requires of some models. */

/** Models that take `max_completion_tokens` instead of `max_tokens` (the reasoning families). */
const COMPLETION_TOKENS_MODEL = /^(gpt-5|o\d)/;

/** A chat-completions body as Copilot takes it, and what was dropped. */
export function normalizeCopilotChatBody(body: Record<string, unknown>): {
  body: Record<string, unknown>;
  dropped: string[];
} {
  const out: Record<string, unknown> = { ...body };
  const dropped: string[] = [];
  if (
    typeof out.model === "string" && COMPLETION_TOKENS_MODEL.test(out.model) && out.max_tokens !== undefined
  ) {
    out.max_completion_tokens ??= out.max_tokens;
    delete out.max_tokens;
  }
  // Copilot rejects an explicit "none" effort and Anthropic-style thinking on this endpoint.
  if (out.reasoning_effort === "none") {
    delete out.reasoning_effort;
    dropped.push("reasoning_effort");
  }
  if (out.thinking !== undefined) {
    delete out.thinking;
    dropped.push("thinking");
  }
  return { body: out, dropped };
}
