import type { ProviderFamily } from "../../model/mod.ts";
import { type EnvelopedReasoning, openReasoning, sealReasoning } from "../shared/reasoning_envelope.ts";

/**
 * The encrypted_content for reasoning that is not OpenAI's: the family and its tokens, or, for unsigned
 * reasoning, its text (the upstream wants it back as text: DeepSeek- and Kimi-style `reasoning_content`).
 * Undefined for OpenAI's own reasoning (its encrypted_content goes to the client as it came) and for
 * empty reasoning. Stateless clients drop reasoning items that have no encrypted_content.
 */
export function wrapForeignReasoning(
  family: ProviderFamily | undefined,
  signature: string | undefined,
  redactedData: string | undefined,
  text: string,
): string | undefined {
  if (family === "openai") return undefined;
  if (signature || redactedData) {
    if (family === undefined) return undefined;
    return sealReasoning({ family, signature, redactedData });
  }
  if (text === "") return undefined;
  return sealReasoning({ family: family ?? "other", text });
}

/** The family and tokens of an encrypted_content the gateway wrote, or undefined for OpenAI's own. */
export function unwrapForeignReasoning(encrypted: string): EnvelopedReasoning | undefined {
  const opened = openReasoning(encrypted);
  if (!opened) return undefined;
  // Extra fields belong to the client format the envelope was written for, not to this item.
  const { extra: _, ...reasoning } = opened;
  return reasoning;
}
