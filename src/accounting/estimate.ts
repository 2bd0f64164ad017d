import { countTokens } from "gpt-tokenizer";
import type { Part } from "../model/parts.ts";
import type { NeutralRequest } from "../model/request.ts";
import type { Usage } from "../model/usage.ts";

/** Tokens every chat message costs beyond its content (role and separators in chat templates). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;
/** A flat estimate for one image; real costs depend on size and detail, which are not known here. */
export const IMAGE_TOKENS = 765;

// Special-token text such as "<|endoftext|>" in user content is counted as ordinary text, never
// rejected: the estimate must not fail on what a client typed.
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };

/** Counts the tokens of a text with the o200k_base encoding (gpt-tokenizer's default). */
export function estimateTokens(text: string): number {
  return text === "" ? 0 : countTokens(text, ENCODE_OPTIONS);
}

/** Estimates a request's input tokens: system, messages, tool calls and results, and tool definitions. */
export function estimateRequestTokens(request: NeutralRequest): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const block of request.system) total += estimateTokens(block.text);
  if (request.system.length > 0) total += MESSAGE_OVERHEAD_TOKENS;
  for (const message of request.messages) {
    total += MESSAGE_OVERHEAD_TOKENS + partsTokens(message.parts);
  }
  for (const tool of request.tools) {
    total += estimateTokens(
      JSON.stringify({ name: tool.name, description: tool.description ?? "", parameters: tool.parameters }),
    );
  }
  return total;
}

/** Estimates the output tokens of response parts, and how many of them are reasoning. */
export function estimateResponseTokens(parts: readonly Part[]): { output: number; reasoning: number } {
  let reasoning = 0;
  for (const part of parts) if (part.kind === "reasoning") reasoning += estimateTokens(part.text);
  return { output: partsTokens(parts), reasoning };
}

/** A whole usage estimate for an exchange whose upstream reported none; marked `estimated`. */
export function estimateUsage(request: NeutralRequest, responseParts: readonly Part[]): Usage {
  const { output, reasoning } = estimateResponseTokens(responseParts);
  return {
    inputTotal: estimateRequestTokens(request),
    cacheRead: 0,
    cacheWrite: 0,
    output,
    reasoning,
    estimated: true,
  };
}

function partsTokens(parts: readonly Part[]): number {
  let total = 0;
  for (const part of parts) {
    switch (part.kind) {
      case "text":
        total += estimateTokens(part.text);
        break;
      case "image":
        total += IMAGE_TOKENS;
        break;
      case "toolCall":
        total += estimateTokens(part.name) + estimateTokens(part.arguments);
        break;
      case "toolResult":
        total += partsTokens(part.content);
        break;
      case "reasoning":
        total += estimateTokens(part.text);
        break;
    }
  }
  return total;
}
