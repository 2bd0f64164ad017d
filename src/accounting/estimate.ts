import type { Part } from "../model/parts.ts";
import type { NeutralRequest } from "../model/request.ts";

/** Tokens every chat message costs beyond its content (role and separators in chat templates). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;
/** A flat estimate for one image; real costs depend on size and detail, which are not known here. */
export const IMAGE_TOKENS = 765;

// Special-token text such as "<|endoftext|>" in user content is counted as ordinary text, never
// rejected: the estimate must not fail on what a client typed.
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };

/**
 * The tokenizer is loaded on first need, not at startup. Its o200k_base tables take about 20 MB of heap
 * and a third of a second to build, and most upstreams report usage, so most gateways never need them.
 * A heap that size is not free even unused: with it, each request promoted about 700 bytes more into the
 * old generation and scavenges took about 1.7 times as long (a bare proxy measured with and without it).
 */
let tokenizer: typeof import("gpt-tokenizer") | null = null;
let loading: Promise<void> | null = null;

/** Loads the tokenizer (once; a failed load is retried by the next call). */
export function loadTokenizer(): Promise<void> {
  loading ??= import("gpt-tokenizer").then(
    (module) => {
      tokenizer = module;
    },
    (error) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** True once estimates can be made; before that, `loadTokenizer()` must be awaited. */
export function tokenizerLoaded(): boolean {
  return tokenizer !== null;
}

/** Counts the tokens of a text with the o200k_base encoding (gpt-tokenizer's default). */
export function estimateTokens(text: string): number {
  if (text === "") return 0;
  if (tokenizer === null) {
    throw new Error("token estimate before the tokenizer was loaded (await loadTokenizer())");
  }
  return tokenizer.countTokens(text, ENCODE_OPTIONS);
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
