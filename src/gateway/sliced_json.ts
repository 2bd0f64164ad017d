/**
 * A request body as JSON bytes, made across turns of the event loop when it holds a long string (a big
 * prompt, a base64 image). `JSON.stringify` of a 30 MiB prompt is one step of 40–120 ms on the serving
 * thread, and with several such bodies health checks waited over 100 ms behind it (issue 31, point 4;
 * docs/limits.md). Here the long strings are cut out of the value, the rest is encoded at once (it is
 * small), and each long string is escaped and encoded in slices, one slice a turn: the pieces it came in
 * when the request holds it in pieces (src/long_strings.ts; slicing it would first make the whole string,
 * in one step), else slices of it. The bytes are the same as `TextEncoder` gives for `JSON.stringify(value)`:
 * a slice never ends between the two halves of a surrogate pair (apart, each would be escaped), and JSON
 * escaping works character by character.
 */
import { LONG_STRING_CHARS, type LongStrings, pieceEnd } from "../long_strings.ts";
import { nextTurn } from "../next_turn.ts";

/**
 * A JSON request body: the text at once, or, when the value holds a long string, its bytes in parts made
 * a slice per turn (`slicedJsonBytes`). What every upstream call with a JSON body sends.
 */
export function jsonRequestBody(
  value: unknown,
  longStrings?: LongStrings,
): string | Promise<Uint8Array<ArrayBuffer>[]> {
  return hasLongString(value) || longStrings?.hasStandIns
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

/** Whether the JSON value holds a string of at least `limit` characters (a walk over its nodes). */
export function hasLongString(value: unknown, limit = LONG_STRING_CHARS): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.length >= limit) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === "object" && next !== null) {
      for (const key in next) pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}

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
 * `JSON.stringify(value)` as texts whose concatenation it is: the value around its long strings, then each
 * long string's escaped slices, each made on a turn of its own (see `slicedJsonBytes`).
 */
export async function* slicedJsonText(
  value: unknown,
  { longStrings, limit = LONG_STRING_CHARS, sliceChars = SLICE_CHARS }: SliceOptions = {},
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
