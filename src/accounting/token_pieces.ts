/**
 * Where to cut text before the tokenizer sees it. Byte-pair merging is quadratic in the length of one
 * pre-token (a run of letters, of punctuation or of whitespace), and a client can send a megabyte with
 * no break at all; cutting every text into pieces of bounded length makes counting linear.
 *
 * Cuts land on pre-token boundaries of o200k_base whenever the window has one, so normal text counts
 * exactly as it would whole. Only a window with no boundary (a run of only letters, only signs or only
 * whitespace longer than half a piece) is cut blindly, which moves the count by about one token per cut.
 */

/** Longest piece handed to the tokenizer: under 1 ms for the costliest text measured (about 3 µs a character). */
export const PIECE_CHARS = 256;

const SPACE = 0x20;
const APOSTROPHE = 0x27;

/** Character classes as o200k_base's pre-tokenizer splits them. */
const enum Kind {
  Letter,
  Digit,
  Other,
  Space,
  Surrogate,
}

const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
const WHITESPACE = /\s/u;

function kindAt(text: string, at: number): Kind {
  const c = text.charCodeAt(at);
  if (c < 0x80) {
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return Kind.Letter;
    if (c >= 0x30 && c <= 0x39) return Kind.Digit;
    return c === SPACE || (c >= 0x09 && c <= 0x0d) ? Kind.Space : Kind.Other;
  }
  if (c >= 0xd800 && c <= 0xdfff) return Kind.Surrogate;
  const char = text[at];
  if (LETTER.test(char)) return Kind.Letter;
  if (DIGIT.test(char)) return Kind.Digit;
  return WHITESPACE.test(char) ? Kind.Space : Kind.Other;
}

/**
 * True when a pre-token certainly starts at `at`: a space after a non-space (a word takes its leading
 * space, nothing before takes a trailing one), or a change between letters, digits and other signs that
 * no pattern spans. A sign before a letter is not one (a word takes one leading sign), nor an apostrophe
 * after a letter (contractions), nor a newline (a sign run takes trailing newlines).
 */
function boundaryAt(text: string, at: number): boolean {
  const before = kindAt(text, at - 1);
  const after = kindAt(text, at);
  if (before === Kind.Space || before === Kind.Surrogate || after === Kind.Surrogate) return false;
  if (after === Kind.Space) return text.charCodeAt(at) === SPACE;
  if (before === after) return false;
  if (after === Kind.Letter) return before === Kind.Digit;
  return !(before === Kind.Letter && text.charCodeAt(at) === APOSTROPHE);
}

/** End of the piece that starts at `start`: the whole rest when short, else the last boundary in reach. */
export function pieceEnd(text: string, start: number, max = PIECE_CHARS): number {
  const limit = start + max;
  if (limit >= text.length) return text.length;
  const floor = start + (max >> 1);
  // Spaces first: the engine finds them fast, and in prose nearly every window has one. The search runs
  // in the window only: from `limit` back through a text without spaces it would be quadratic again.
  const window = text.slice(floor + 1, limit + 1);
  for (let at = window.lastIndexOf(" "); at !== -1; at = at === 0 ? -1 : window.lastIndexOf(" ", at - 1)) {
    if (boundaryAt(text, floor + 1 + at)) return floor + 1 + at;
  }
  for (let at = limit; at > floor; at--) {
    if (boundaryAt(text, at)) return at;
  }
  // No boundary: cut blindly, but never inside a surrogate pair.
  const high = text.charCodeAt(limit - 1);
  return high >= 0xd800 && high <= 0xdbff ? limit - 1 : limit;
}
