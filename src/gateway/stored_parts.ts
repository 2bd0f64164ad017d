/**
 * A big stored conversation (a million characters of text or more: pasted logs, base64 images) saved and
 * read without holding the serving thread. Saved in one step, a 30 MiB input held it for 600-800 ms: its
 * redaction (about 480 ms), its JSON (55 ms) and one write (70-230 ms); read back, its text and its parse
 * were over 100 ms. Here long strings are redacted on a worker, the rest between turns, the JSON is made a
 * slice per turn (src/gateway/sliced_json.ts) and written a part per turn, and a read takes a part per turn
 * and parses them on the JSON parser's thread, whose long strings come back in pieces (src/long_strings.ts).
 */
import {
  cutIntoPieces,
  LONG_STRING_CHARS,
  type LongStrings,
  type ParsedJson,
  pieceEnd,
} from "../long_strings.ts";
import { nextTurn } from "../next_turn.ts";
import type { StagedParts, StoredResponsesRepo } from "../storage/mod.ts";
import { slicedJsonText } from "./sliced_json.ts";
import { isBase64DataUrl, KEPT_AS_IS, redactText, type WireItem } from "./stored_conversation.ts";

/** A conversation whose JSON takes about this many characters or more (`isBigJson`) is stored in parts. */
export const PARTS_CHARS = LONG_STRING_CHARS;

/**
 * Longest part written (UTF-16 units): writing one takes the serving thread about 12 ms (2 Mi characters
 * took 22-32 ms, measured 2026-11-29 on SQLite).
 */
const PART_CHARS = 1024 * 1024;

/** Text redacted on the serving thread between two turns (about 20-35 ms a million characters). */
const REDACT_CHARS_PER_TURN = 256 * 1024;

/** What redacting a big conversation needs. */
export interface PacedRedaction {
  /** The redactor, for strings short enough to redact here. */
  readonly redact: (text: string) => string;
  /** Redacts a long string, given and given back in pieces, off the serving thread (null: nothing to redact). */
  readonly redactLong: (pieces: readonly string[]) => Promise<readonly string[] | null>;
  /** The pieces of the request's long strings; the redacted ones are added. */
  readonly longStrings: LongStrings;
}

/**
 * `redactItem` for each item `skip` does not name, across turns: a long string on the worker, by its pieces
 * (a base64 data URL is kept, tested piece by piece), the others here with a turn after each million
 * characters.
 */
export async function redactPaced(
  items: readonly WireItem[],
  skip: (index: number) => boolean,
  how: PacedRedaction,
): Promise<WireItem[]> {
  // The first string waits for a turn too: the items were just gathered and measured, in a step of their own.
  let sinceTurn = REDACT_CHARS_PER_TURN;
  const text = async (value: string, key: string): Promise<string> => {
    if (KEPT_AS_IS.has(key)) return value;
    if (value.length >= LONG_STRING_CHARS) {
      // A rope not held in pieces is made whole here, once (none is expected: long strings come held).
      const pieces = how.longStrings.piecesOf(value) ?? cutIntoPieces(value);
      if (isBase64DataUrl(pieces)) return value;
      const redacted = await how.redactLong(pieces);
      if (redacted === null) return value;
      let joined = "";
      for (const piece of redacted) joined += piece;
      how.longStrings.add(joined, redacted);
      return joined;
    }
    sinceTurn += value.length;
    if (sinceTurn >= REDACT_CHARS_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
    return redactText(value, key, how.redact);
  };
  const walk = async (value: unknown, key: string): Promise<unknown> => {
    if (typeof value === "string") return await text(value, key);
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) out.push(await walk(item, ""));
      return out;
    }
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await walk(v, k);
    return out;
  };
  const out: WireItem[] = [];
  for (let i = 0; i < items.length; i++) {
    out.push(skip(i) ? items[i] : await walk(items[i], "") as WireItem);
  }
  return out;
}

/**
 * Writes `value`'s JSON as parts of at most PART_CHARS characters under a new stage, one part a turn, its
 * long strings encoded by the pieces `longStrings` holds. Parts of a write that fails are dropped.
 */
export async function writeParts(
  repo: StoredResponsesRepo,
  value: unknown,
  longStrings: LongStrings,
  createdAt: number,
): Promise<StagedParts> {
  const stage = crypto.randomUUID();
  let count = 0;
  let chars = 0;
  let pending = "";
  const write = (part: string) => {
    repo.putPart(stage, count++, part, createdAt);
    chars += part.length;
  };
  try {
    for await (const text of slicedJsonText(value, { longStrings })) {
      pending += text;
      // Cut never inside a surrogate pair, which a part stored as text would turn into two replacement
      // characters.
      while (pending.length >= PART_CHARS) {
        // A turn of its own: a write may also copy the database's log into it (about 20 ms every few MB).
        await nextTurn();
        const end = pieceEnd(pending, 0, PART_CHARS);
        write(pending.slice(0, end));
        pending = pending.slice(end);
      }
    }
    if (pending !== "" || count === 0) write(pending);
    return { stage, count, chars };
  } catch (error) {
    repo.dropStage(stage);
    throw error;
  }
}

/**
 * The value of the JSON written in parts under `stage`, read a part per turn and parsed off the serving
 * thread; null when a part is gone (its response was dropped meanwhile).
 */
export async function readParts(
  repo: StoredResponsesRepo,
  where: { readonly stage: string; readonly count: number },
  parse: (parts: Uint8Array<ArrayBuffer>[]) => Promise<ParsedJson>,
): Promise<ParsedJson | null> {
  const utf8 = new TextEncoder();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let seq = 0; seq < where.count; seq++) {
    await nextTurn();
    const part = repo.part(where.stage, seq);
    if (part === null) return null;
    parts.push(utf8.encode(part));
  }
  return await parse(parts);
}
