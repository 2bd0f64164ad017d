/**
 * A request body as JSON bytes, made across turns of the event loop when it is big (a big prompt, a base64
 * image, or thousands of messages). `JSON.stringify` of a 30 MiB body is one step of 40–120 ms on the
 * serving thread, and with several such bodies health checks waited over 100 ms behind it (issue 31, point 4;
 * docs/limits.md). Here the value is written a subtree at a time, each subtree of at most a slice's
 * size encoded at once and a turn taken between slices' worth; a long string is cut out of its subtree and
 * escaped and encoded in slices, one slice a turn: the pieces it came in when the request holds it in
 * pieces (src/long_strings.ts; slicing it would first make the whole string, in one step), else slices of
 * it. The bytes are the same as `TextEncoder` gives for `JSON.stringify(value)`: a slice never ends between
 * the two halves of a surrogate pair (apart, each would be escaped), and JSON escaping works character by
 * character.
 */
import { LONG_STRING_CHARS, type LongStrings, pieceEnd } from "../long_strings.ts";
import { nextTurn } from "../next_turn.ts";
import { isBigJson, jsonTextSize } from "../json_size.ts";

/**
 * A JSON request body: the text at once, or, when the value is big or holds a stand-in, its bytes in parts
 * made a slice per turn (`slicedJsonBytes`). What every upstream call with a JSON body sends.
 */
export function jsonRequestBody(
  value: unknown,
  longStrings?: LongStrings,
): string | Promise<Uint8Array<ArrayBuffer>[]> {
  return longStrings?.hasStandIns || isBigJson(value, LONG_STRING_CHARS)
    ? slicedJsonBytes(value, { longStrings })
    : JSON.stringify(value);
}

/** One slice: about 5 ms of escaping and encoding. */
const SLICE_CHARS = 2 * 1024 * 1024;

/** How `slicedJsonBytes` cuts: the request's held long strings, and (tests) smaller limits. */
export interface SliceOptions {
  readonly longStrings?: LongStrings;
  readonly limit?: number;
  readonly sliceChars?: number;
}

const utf8 = new TextEncoder();

/**
 * The UTF-8 bytes of `JSON.stringify(value)` as parts, long strings escaped and encoded a slice per turn
 * (`sliceChars` UTF-16 units at most, or the pieces the request holds the string in). `value` is plain
 * JSON data (no `toJSON`, no cycles), as an upstream codec builds it.
 */
export async function slicedJsonBytes(
  value: unknown,
  options: SliceOptions = {},
): Promise<Uint8Array<ArrayBuffer>[]> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const text of slicedJsonText(value, options)) parts.push(utf8.encode(text));
  return parts;
}

/**
 * `JSON.stringify(value)` as texts whose concatenation it is, made across turns: the value a subtree of at
 * most `sliceChars` at a time with a turn between slices' worth, each subtree's long strings in slices of
 * their own, each on a turn of its own (see `slicedJsonBytes`).
 */
export async function* slicedJsonText(
  value: unknown,
  { longStrings, limit = LONG_STRING_CHARS, sliceChars = SLICE_CHARS }: SliceOptions = {},
): AsyncGenerator<string> {
  // The first slice too waits for a turn: the value was just made, in a step of its own.
  let written = sliceChars;
  for (const part of jsonParts(value, sliceChars, new Map())) {
    if (typeof part === "string") {
      yield part;
      continue;
    }
    if (written >= sliceChars) {
      await nextTurn();
      written = 0;
    }
    written += part.size;
    // A subtree shorter than a long string holds none; only a stand-in would need looking for.
    if (part.size < limit && !longStrings?.hasStandIns) yield JSON.stringify(part.node);
    else yield* subtreeText(part.node, longStrings, limit, sliceChars);
  }
}

/**
 * The first `chars` characters of `JSON.stringify(value)` (all of it when shorter), made without writing the
 * rest: a big body's request log keeps its head only. Long strings are read from their first piece.
 */
export function jsonHead(value: unknown, chars: number, longStrings?: LongStrings): string {
  let text = "";
  for (const part of jsonParts(value, chars, new Map())) {
    if (text.length >= chars) break;
    if (typeof part === "string") text += part;
    else if (typeof part.node === "string" && part.size > chars) {
      // One character past what is needed, so a pair cut at the end is escaped past it too.
      const wanted = chars - text.length + 2;
      text += JSON.stringify(longStrings?.head(part.node, wanted) ?? part.node.slice(0, wanted)).slice(0, -1);
    } else text += JSON.stringify(part.node);
  }
  return text.length > chars ? text.slice(0, chars) : text;
}

/**
 * The value in document order as punctuation (texts) and subtrees whose text is at most about `sliceChars`
 * (a string longer than that is a subtree of its own); containers over it are opened and written a member
 * at a time. `JSON.stringify`'s rules: object members in key order, undefined and function members left
 * out, and written as null in arrays.
 */
function* jsonParts(
  node: unknown,
  sliceChars: number,
  sizes: Map<object, number>,
): Generator<string | { readonly node: unknown; readonly size: number }> {
  const size = jsonTextSize(node, sizes);
  if (size <= sliceChars || typeof node !== "object" || node === null) {
    yield { node, size };
    return;
  }
  if (Array.isArray(node)) {
    yield "[";
    for (let i = 0; i < node.length; i++) {
      if (i > 0) yield ",";
      const item = node[i];
      yield* jsonParts(item === undefined || typeof item === "function" ? null : item, sliceChars, sizes);
    }
    yield "]";
    return;
  }
  let separator = "{";
  for (const key of Object.keys(node)) {
    const item = (node as Record<string, unknown>)[key];
    if (item === undefined || typeof item === "function") continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ",";
    yield* jsonParts(item, sliceChars, sizes);
  }
  yield separator === "{" ? "{}" : "}";
}

/** One subtree's JSON text: its long strings cut out and written in slices, its stand-ins put back. */
async function* subtreeText(
  value: unknown,
  longStrings: LongStrings | undefined,
  limit: number,
  sliceChars: number,
): AsyncGenerator<string> {
  const long: string[] = [];
  // A marker no content can hold by chance: it carries a random nonce, and is checked below anyway.
  const nonce = crypto.randomUUID();
  const marker = (i: number) => `gateway-slice-${nonce}-${i}`;
  const skeleton = JSON.stringify(value, (_key, item) => {
    if (typeof item !== "string" || item.length < limit) return item;
    long.push(item);
    return marker(long.length - 1);
  });
  let from = 0;
  for (let i = 0; i < long.length; i++) {
    const at = skeleton.indexOf(`"${marker(i)}"`, from);
    if (at < 0) throw new Error("sliced JSON: a marker went missing");
    // The quotes stay with the skeleton; the string's escaped body goes between them.
    yield* withStandInsPut(skeleton.slice(from, at + 1), longStrings);
    from = at + 1 + marker(i).length;
    for await (const slice of slicesOf(long[i], sliceChars, longStrings)) {
      yield JSON.stringify(slice).slice(1, -1);
    }
  }
  yield* withStandInsPut(skeleton.slice(from), longStrings);
}

/**
 * `text` (JSON) with each stand-in it holds (src/gateway/stand_ins.ts) replaced by the escaped pieces it
 * stands for, a piece per turn. A stand-in is only ever inside a JSON string, and escaping leaves it as it is.
 */
async function* withStandInsPut(text: string, longStrings?: LongStrings): AsyncGenerator<string> {
  let from = 0;
  if (longStrings?.hasStandIns) {
    for (let found = longStrings.standInAt(text, 0); found; found = longStrings.standInAt(text, from)) {
      yield text.slice(from, found.at);
      for (const piece of found.pieces) {
        await nextTurn();
        yield JSON.stringify(piece).slice(1, -1);
      }
      from = found.at + found.length;
    }
  }
  yield from === 0 ? text : text.slice(from);
}

/** The slices `text` is encoded in, each on a turn of its own: the pieces the request holds, or cuts of it. */
async function* slicesOf(
  text: string,
  sliceChars: number,
  longStrings?: LongStrings,
): AsyncGenerator<string> {
  const pieces = longStrings?.piecesOf(text);
  if (pieces !== undefined) {
    for (const piece of pieces) {
      await nextTurn();
      yield piece;
    }
    return;
  }
  for (let start = 0; start < text.length;) {
    await nextTurn();
    const end = pieceEnd(text, start, sliceChars);
    yield text.slice(start, end);
    start = end;
  }
}
