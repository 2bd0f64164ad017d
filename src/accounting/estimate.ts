import type { Part } from "../model/parts.ts";
import type { NeutralRequest } from "../model/request.ts";
import { type Pacer, timePacer } from "./pacer.ts";
import { PIECE_CHARS, pieceEnd } from "./token_pieces.ts";

/** Tokens every chat message costs beyond its content (role and separators in chat templates). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;
/** A flat estimate for one image; real costs depend on size and detail, which are not known here. */
export const IMAGE_TOKENS = 765;
/**
 * Characters counted exactly per estimate (under 20 ms of work for prose, under a second, paced, for the
 * costliest text measured); the rest is extrapolated at the tokens-per-character ratio of the counted
 * part, which follows the text's own language and kind. Few requests reach it: 256 Ki characters are
 * about 65,000 tokens of English.
 */
export const EXACT_CHARS = 256 * 1024;
/**
 * The most characters of an estimate's texts the tokenizer reads, together: EXACT_CHARS and the window the
 * last piece's end is looked for in. Beyond them only each text's length matters (`countTextTokens`
 * with `lengths`), so a caller can hand over heads of this many characters instead of whole texts.
 */
export const READ_CHARS = EXACT_CHARS + 2 * PIECE_CHARS;
/** Characters per token assumed when nothing could be counted to calibrate on (o200k on English prose). */
const FALLBACK_CHARS_PER_TOKEN = 4;

// Special-token text such as "<|endoftext|>" in user content is counted as ordinary text, never
// rejected: the estimate must not fail on what a client typed.
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };
/**
 * The tokenizer keeps up to 100,000 merged pre-tokens by default; with pieces of up to 256 characters
 * that could hold a hundred megabytes after a few large bodies. Prose repeats short words, so a smaller
 * cache loses little.
 */
const MERGE_CACHE_ENTRIES = 10_000;

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
      module.setMergeCacheSize(MERGE_CACHE_ENTRIES);
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

/** What one estimate has counted so far. */
interface Tally {
  /** Tokens of the characters counted exactly. */
  tokens: number;
  exactChars: number;
  /** Characters beyond EXACT_CHARS, extrapolated at the end. */
  restChars: number;
}

/**
 * Counts `texts` into `tally` piece by piece; before each piece but the first, a generator yield when
 * `due()` says so (so a count that ends within its slice never pauses). `lengths`: each text's whole length
 * when `texts` are heads of them (see READ_CHARS).
 */
function* counting(
  texts: readonly string[],
  tally: Tally,
  due: () => boolean,
  lengths?: readonly number[],
): Generator<void, void, void> {
  let first = true;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    const length = lengths?.[i] ?? text.length;
    for (let start = 0; start < length;) {
      if (!first && due()) yield;
      first = false;
      if (tokenizer === null) {
        throw new Error("token estimate before the tokenizer was loaded (await loadTokenizer())");
      }
      // Past a head's end only its length is known: it is extrapolated like the rest past EXACT_CHARS.
      if (tally.exactChars >= EXACT_CHARS || start >= text.length) {
        tally.restChars += length - start;
        break;
      }
      const end = pieceEnd(text, start);
      const piece = start === 0 && end === text.length ? text : text.slice(start, end);
      tally.tokens += tokenizer.countTokens(piece, ENCODE_OPTIONS);
      tally.exactChars += end - start;
      start = end;
    }
  }
}

function total(tally: Tally): number {
  if (tally.restChars === 0) return tally.tokens;
  const perChar = tally.exactChars > 0 ? tally.tokens / tally.exactChars : 1 / FALLBACK_CHARS_PER_TOKEN;
  return tally.tokens + Math.ceil(tally.restChars * perChar);
}

/**
 * Counts the tokens of `texts`: at once when that takes less than one slice of the pacer (the usual
 * case, so callers can record without waiting), else in slices with a pause between them. With
 * `lengths`, `texts` are heads (of at least READ_CHARS characters together, or whole) of texts that long:
 * the count is the same as of the whole texts.
 */
export function countTextTokens(
  texts: readonly string[],
  pacer: Pacer = timePacer(),
  lengths?: readonly number[],
): number | Promise<number> {
  const tally: Tally = { tokens: 0, exactChars: 0, restChars: 0 };
  const steps = counting(texts, tally, () => pacer.due(), lengths);
  if (steps.next().done) return total(tally);
  return (async () => {
    do await pacer.pause(); while (!steps.next().done);
    return total(tally);
  })();
}

/**
 * Counts the tokens of one text with the o200k_base encoding (gpt-tokenizer's default), synchronously:
 * linear in the text's length and capped at EXACT_CHARS of work, but meant for short texts; use
 * `countTextTokens` for anything that may be large.
 */
export function estimateTokens(text: string): number {
  if (text === "") return 0;
  const tally: Tally = { tokens: 0, exactChars: 0, restChars: 0 };
  for (const _ of counting([text], tally, () => false));
  return total(tally);
}

/**
 * Estimates a request's input tokens: system, messages, tool calls and results, and tool definitions.
 * A number when the request fits in one slice of work, else a promise (see `countTextTokens`).
 */
export function estimateRequestTokens(
  request: NeutralRequest,
  pacer: Pacer = timePacer(),
): number | Promise<number> {
  const { texts, fixed } = requestTexts(request);
  const counted = countTextTokens(texts, pacer);
  return typeof counted === "number" ? fixed + counted : counted.then((tokens) => fixed + tokens);
}

/** What a request's input estimate counts: its texts, and the tokens fixed without counting (overheads, images). */
export function requestTexts(request: NeutralRequest): { texts: string[]; fixed: number } {
  const texts: string[] = [];
  let fixed = REPLY_PRIMING_TOKENS;
  for (const block of request.system) texts.push(block.text);
  if (request.system.length > 0) fixed += MESSAGE_OVERHEAD_TOKENS;
  for (const message of request.messages) {
    fixed += MESSAGE_OVERHEAD_TOKENS + collectParts(message.parts, texts);
  }
  for (const tool of request.tools) {
    texts.push(
      JSON.stringify({ name: tool.name, description: tool.description ?? "", parameters: tool.parameters }),
    );
  }
  return { texts, fixed };
}

/** Pushes the texts of `parts` to count and returns their fixed tokens (images). */
function collectParts(parts: readonly Part[], texts: string[]): number {
  let fixed = 0;
  for (const part of parts) {
    switch (part.kind) {
      case "text":
        texts.push(part.text);
        break;
      case "image":
        fixed += IMAGE_TOKENS;
        break;
      case "toolCall":
        texts.push(part.name, part.arguments);
        break;
      case "toolResult":
        fixed += collectParts(part.content, texts);
        break;
      case "reasoning":
        texts.push(part.text);
        break;
    }
  }
  return fixed;
}
