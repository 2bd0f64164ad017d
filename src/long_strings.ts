/**
 * A request's long strings (a 30 MiB prompt, a base64 image) held as the pieces they were joined from.
 *
 * Making one 30 MB string is one step on the thread that makes it: about 20 ms on a quiet machine, over
 * 100 ms on a busy one, most of it the first touches of fresh memory (copying into memory already in use
 * takes 4 ms). A big body is parsed on a worker (src/http/json_parse_worker.ts), and its long strings reach
 * the serving thread a piece per turn, joined with `+`: V8 keeps such a join as a rope of its pieces, and
 * the serving thread never makes the whole string. Reading a rope's characters (`slice`, a regular
 * expression, `JSON.stringify`, hashing it as a `Map` key) flattens it into one string, in one step; what
 * only needs its characters in order (the upstream body's encoder, the request log's head of the body)
 * asks here for the pieces instead.
 */

/**
 * Strings at least this long (UTF-16 units) are long: they come in pieces and are encoded a piece per turn
 * (a value without one is not worth the encoder's walk and turns).
 */
export const LONG_STRING_CHARS = 1024 * 1024;

/** Longest piece (UTF-16 units): making one costs the serving thread about 1-2 ms. */
export const PIECE_CHARS = 2 * 1024 * 1024;

/** A stand-in's number, fixed in width so that it ends where its text says. */
const STAND_IN_DIGITS = 6;

/** Where a piece of `text` that starts at `start` ends: PIECE_CHARS on, never between a surrogate pair. */
export function pieceEnd(text: string, start: number, pieceChars = PIECE_CHARS): number {
  let end = Math.min(text.length, start + pieceChars);
  // Apart, the two halves of a pair would each be escaped on their own when the piece is encoded.
  if (
    end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))
  ) {
    end += end - 1 > start ? -1 : 1;
  }
  return end;
}

/**
 * A parsed JSON value, and, for a big body (one parsed off the serving loop), the pieces of its long
 * strings, none when it has none: whoever handles the value takes turns between its big steps when
 * `longStrings` is there.
 */
export interface ParsedJson {
  readonly value: unknown;
  readonly longStrings?: LongStrings;
}

/** `text` cut into pieces of at most `pieceChars` (see `pieceEnd`); slices of a flat string cost little. */
export function cutIntoPieces(text: string, pieceChars = PIECE_CHARS): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, pieceChars);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** One request's long strings and their pieces. */
export class LongStrings {
  readonly #entries: { readonly text: string; readonly pieces: readonly string[] }[] = [];
  /** Stand-ins by their text (`standIn`). */
  readonly #standIns = new Map<string, readonly string[]>();
  #standInPrefix = "";

  /**
   * A short text that stands for the long text `pieces` join to, in a value the wire codecs read in its
   * place (a base64 image's payload: taking a data URL apart would make the whole string, in one step).
   * The upstream body's encoder puts the pieces where it finds the stand-in (`standInAt`), so every upstream
   * call of the request writes its JSON body through it (src/gateway/sliced_json.ts; a subscription
   * envelope too, src/executors/call_shape.ts).
   * The text is letters, digits and `-` only, so JSON and URLs carry it as it is, and it holds a random
   * nonce, so no content holds it by chance.
   */
  standIn(pieces: readonly string[]): string {
    if (this.#standInPrefix === "") this.#standInPrefix = `gateway-stand-in-${crypto.randomUUID()}-`;
    const text = `${this.#standInPrefix}${String(this.#standIns.size).padStart(STAND_IN_DIGITS, "0")}`;
    this.#standIns.set(text, pieces);
    return text;
  }

  /** Whether any stand-in was made (only then can a value hold one). */
  get hasStandIns(): boolean {
    return this.#standIns.size > 0;
  }

  /**
   * The first stand-in in `text` at or after `from`: where it starts, how long it is, and the pieces it
   * stands for; undefined when there is none.
   */
  standInAt(
    text: string,
    from: number,
  ): { readonly at: number; readonly length: number; readonly pieces: readonly string[] } | undefined {
    if (this.#standInPrefix === "") return undefined;
    const at = text.indexOf(this.#standInPrefix, from);
    if (at < 0) return undefined;
    const length = this.#standInPrefix.length + STAND_IN_DIGITS;
    const pieces = this.#standIns.get(text.slice(at, at + length));
    if (pieces === undefined) throw new Error("a stand-in of another request, or a cut one");
    return { at, length, pieces };
  }

  /** Records that `text` is the join of `pieces`. */
  add(text: string, pieces: readonly string[]): void {
    this.#entries.push({ text, pieces });
  }

  /** Records every long string `other` holds as well. */
  addFrom(other: LongStrings): void {
    this.#entries.push(...other.#entries);
  }

  /** How many long strings are held. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * The pieces `text` was joined from, or undefined for a string not held here. Lengths are compared
   * first: comparing two different strings of the same length reads both, so it is kept to the rare
   * request with two long strings of exactly one length.
   */
  piecesOf(text: string): readonly string[] | undefined {
    for (const entry of this.#entries) {
      if (entry.text.length === text.length && entry.text === text) return entry.pieces;
    }
    return undefined;
  }

  /** The first `chars` characters of `text` (all of it when shorter), read from its first piece when held. */
  head(text: string, chars: number): string {
    if (text.length <= chars) return text;
    const first = this.piecesOf(text)?.[0];
    return first !== undefined && first.length >= chars ? first.slice(0, chars) : text.slice(0, chars);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
