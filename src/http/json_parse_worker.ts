/**
 * The JSON parse worker: decodes, parses and shape-checks big request bodies on its own thread. On the
 * serving loop a 30 MiB body cost two synchronous steps of 30-35 ms each (decode, parse). The parsed value
 * goes back without its long strings (src/long_strings.ts): receiving a 30 MB string was a step of 20-140 ms
 * of its own, so the worker keeps each in pieces, and the serving thread takes them one a turn (`take`).
 */
import { GatewayError } from "../model/mod.ts";
import { checkJsonShape } from "../wire/shared/limits.ts";
import { cutIntoPieces, LONG_STRING_CHARS } from "../long_strings.ts";
import { decodeUtf8Parts } from "../bytes.ts";

/**
 * One job: a body's bytes to parse (transferred, not copied); JSON the gateway wrote itself, in parts (a
 * stored conversation: not shape-checked, it was checked as it came in); or the next piece of a parsed
 * body's strings.
 */
export type ParseJob =
  | { readonly id: number; readonly bytes: Uint8Array }
  | { readonly id: number; readonly stored: readonly Uint8Array[] }
  /** `take`: the id of the parse job whose next piece is wanted. */
  | { readonly id: number; readonly take: number };

/** Where a long string was in the parsed value (object keys and array indexes), and how many pieces it is. */
export interface LongStringPlan {
  readonly path: readonly (string | number)[];
  readonly pieces: number;
}

/**
 * A parse job's answer: the value (its long strings left out as "", `long` saying where they go), or why
 * the body was refused (a 400 with this message), or an empty body. A take's: the piece, or `missing` when
 * the worker holds none for that body.
 */
export type ParseAnswer =
  | { readonly id: number; readonly value: unknown; readonly long: readonly LongStringPlan[] }
  | { readonly id: number; readonly empty: true }
  | { readonly id: number; readonly notJson: string }
  | { readonly id: number; readonly refused: string }
  | { readonly id: number; readonly piece: string }
  | { readonly id: number; readonly missing: true };

/** Non-fatal decoding, like the serving thread's (bad bytes become U+FFFD). */
const UTF8 = new TextDecoder();

/** Per parsed body (by its job id), the pieces of its long strings not yet taken, in plan order. */
const held = new Map<number, string[]>();

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseJob>) => void) | null;
  postMessage(message: ParseAnswer): void;
};

scope.onmessage = (event) => {
  const job = event.data;
  if ("take" in job) scope.postMessage(take(job.id, job.take));
  else if ("stored" in job) scope.postMessage(parse(job.id, decodeUtf8Parts(job.stored), false));
  else scope.postMessage(parse(job.id, UTF8.decode(job.bytes), true));
};

function parse(id: number, text: string, checkShape: boolean): ParseAnswer {
  if (text.trim() === "") return { id, empty: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { id, notJson: (error as Error).message };
  }
  try {
    if (checkShape) checkJsonShape(value);
  } catch (error) {
    if (error instanceof GatewayError) return { id, refused: error.message };
    throw error;
  }
  const pieces: string[] = [];
  const long = cutLongStrings(value, pieces);
  if (pieces.length > 0) held.set(id, pieces);
  return { id, value, long };
}

function take(id: number, body: number): ParseAnswer {
  const pieces = held.get(body);
  const piece = pieces?.shift();
  if (piece === undefined) return { id, missing: true };
  if (pieces!.length === 0) held.delete(body);
  return { id, piece };
}

/**
 * Replaces every long string in `value`'s objects and arrays with "", appends its pieces to `pieces`, and
 * says where each was (a body that is one string goes back whole: no surface takes one). `value` passed the
 * shape check, so the walk is bounded.
 */
function cutLongStrings(value: unknown, pieces: string[]): LongStringPlan[] {
  const plans: LongStringPlan[] = [];
  const pending: { node: unknown; path: (string | number)[] }[] = [{ node: value, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string | number, unknown>;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      const item = record[key];
      if (typeof item === "string" && item.length >= LONG_STRING_CHARS) {
        const cut = cutIntoPieces(item);
        pieces.push(...cut);
        record[key] = "";
        plans.push({ path: [...path, key], pieces: cut.length });
      } else if (typeof item === "object" && item !== null) {
        pending.push({ node: item, path: [...path, key] });
      }
    }
  }
  return plans;
}
