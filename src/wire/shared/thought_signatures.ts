/**
 * Gemini 3 and later reject a current-turn function call without its thought signature, natively and
 * through their OpenAI-compatible endpoint. A model-family fact both encoders that reach Gemini need.
 */
const REQUIRES_SIGNATURES = /(?:^|[/-])gemini-(?:[3-9]|\d{2,})(?:[.-]|$)/i;

/** Google's documented value for a function call whose real signature is lost (validation is skipped). */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** Whether `model` (an upstream model name) rejects function calls that lack a thought signature. */
export function requiresThoughtSignatures(model: string): boolean {
  return REQUIRES_SIGNATURES.test(model);
}
