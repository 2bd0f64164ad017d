import { isRecord, tryParseJson } from "../shared/mod.ts";
import { primaryChoice } from "./chunk.ts";

/**
 * The shape of a plain content chunk: its text before and after the delta's `content` string. Nearly
 * every chunk of a stream repeats the same envelope (id, object, created, model, index, a null finish)
 * around a new piece of text, so a chunk that starts with `prefix` and ends with `suffix` around a valid
 * JSON string body is that envelope with other content, and can pass without being parsed.
 */
export interface ContentTemplate {
  readonly prefix: string;
  readonly suffix: string;
}

const CONTENT_KEY = '"content":';
/** What a string body needs checked before it is taken as is: quotes, escapes, controls, JS line ends. */
// deno-lint-ignore no-control-regex -- raw control characters are exactly what JSON strings may not hold
const NEEDS_CHECK = /["\\\u0000-\u001f\u2028\u2029]/;

/**
 * The template of `original` (the chunk's data text) whose delta content is `content`, or null when
 * the content is not at a slot that can be swapped. The slot is proven, not guessed: the text that
 * decodes to `content` there must be the one string that, swapped for another, changes the delta's content.
 */
export function learnContentTemplate(original: string, content: string): ContentTemplate | null {
  const key = original.indexOf(CONTENT_KEY);
  if (key < 0) return null;
  // Compact JSON has the quote next; Python's default separators put a space first.
  let quote = key + CONTENT_KEY.length;
  while (original[quote] === " ") quote++;
  if (original[quote] !== '"') return null;
  const bodyStart = quote + 1;
  const bodyEnd = closingQuote(original, bodyStart);
  if (bodyEnd < 0) return null;
  const template = { prefix: original.slice(0, bodyStart), suffix: original.slice(bodyEnd) };
  if (matchContentTemplate(template, original) !== content) return null;
  const probe = content === "x" ? "y" : "x";
  const swapped = tryParseJson(template.prefix + probe + template.suffix);
  const choice = isRecord(swapped) ? primaryChoice(swapped) : undefined;
  return isRecord(choice?.delta) && choice.delta.content === probe ? template : null;
}

/**
 * The delta content of `data` when it has the template's shape, or null (the caller parses it). Only
 * non-empty content that a client can take byte for byte qualifies: no raw control characters or
 * U+2028/U+2029, and escapes that JSON accepts.
 */
export function matchContentTemplate(template: ContentTemplate, data: string): string | null {
  const { prefix, suffix } = template;
  if (data.length <= prefix.length + suffix.length || !data.startsWith(prefix) || !data.endsWith(suffix)) {
    return null;
  }
  const body = data.slice(prefix.length, data.length - suffix.length);
  if (!NEEDS_CHECK.test(body)) return body;
  if (body.includes("\u2028") || body.includes("\u2029")) return null;
  // A quote, backslash or control character: JSON decides whether the body is one valid string.
  const decoded = tryParseJson(`"${body}"`);
  return typeof decoded === "string" ? decoded : null;
}

/** Index of the quote that ends the JSON string body starting at `from` (-1 if none). */
function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}
