/**
 * The JSON parse worker: decodes, parses and shape-checks big request bodies on its own thread. On the
 * serving loop a 30 MiB body cost two synchronous steps of 30-35 ms each (decode, parse). The parsed value
 * goes back without its long strings (src/long_strings.ts): receiving a 30 MB string was a step of 20-140 ms
 * of its own, so the worker keeps each in pieces, and the serving thread takes them one a turn (`take`).
 * A value that is big without long strings (thousands of messages) goes back as its skeleton, its subtrees
 * held in batches taken the same way: received whole, 30 MiB of 2.5 KB messages was a step of 20-60 ms.
 */
import { GatewayError } from "../model/mod.ts";
import { checkJsonShape } from "../wire/shared/limits.ts";
import { cutIntoPieces, LONG_STRING_CHARS } from "../long_strings.ts";
import { decodeUtf8Parts } from "../bytes.ts";
import { jsonTextSize } from "../json_size.ts";

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

/** A subtree of a parsed value sent apart from it, and where it goes. */
export interface Subtree {
  readonly path: readonly (string | number)[];
  readonly node: unknown;
}

/**
 * A parse job's answer: the value (its long strings left out as "", `long` saying where they go; its
 * subtrees in `batches` batches when it is big, left out as null), or why the body was refused (a 400 with
 * this message), or an empty body. A take's: the next batch of subtrees (all come before any piece), the
 * next piece, or `missing` when the worker holds none for that body.
 */
export type ParseAnswer =
  | {
    readonly id: number;
    readonly value: unknown;
    readonly long: readonly LongStringPlan[];
    readonly batches: number;
  }
  | { readonly id: number; readonly subtrees: readonly Subtree[] }
  | { readonly id: number; readonly empty: true }
  | { readonly id: number; readonly notJson: string }
  | { readonly id: number; readonly refused: string }
  | { readonly id: number; readonly piece: string }
  | { readonly id: number; readonly missing: true };

/** Non-fatal decoding, like the serving thread's (bad bytes become U+FFFD). */
const UTF8 = new TextDecoder();

/**
 * A value whose text is over this goes back in batches: its skeleton, then subtrees of at most BATCH_CHARS
 * a batch (receiving one is a step of a few ms).
 */
const DETACH_CHARS = 2 * 1024 * 1024;
const BATCH_CHARS = 1024 * 1024;
/** Strings this short stay in the skeleton: sending them apart would cost more than it saves. */
const KEPT_CHARS = 64;

/** Per parsed body (by its job id), its batches of subtrees and the pieces of its long strings not yet taken. */
const held = new Map<number, (readonly Subtree[] | string)[]>();

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
  const batches = detachSubtrees(value);
  if (batches.length + pieces.length > 0) held.set(id, [...batches, ...pieces]);
  return { id, value, long, batches: batches.length };
}

function take(id: number, body: number): ParseAnswer {
  const items = held.get(body);
  const item = items?.shift();
  if (item === undefined) return { id, missing: true };
  if (items!.length === 0) held.delete(body);
  return typeof item === "string" ? { id, piece: item } : { id, subtrees: item };
}

/**
 * When `value` is big, takes its subtrees out (each replaced by null) in batches of about BATCH_CHARS, in
 * document order: every member of a container over BATCH_CHARS but the shortest strings, containers over it
 * opened in turn. The skeleton keeps every container a detached subtree sits in.
 */
function detachSubtrees(value: unknown): Subtree[][] {
  const sizes = new Map<object, number>();
  if (typeof value !== "object" || value === null || jsonTextSize(value, sizes) <= DETACH_CHARS) return [];
  const batches: Subtree[][] = [];
  let batch: Subtree[] = [];
  let chars = 0;
  const open = (node: object, path: readonly (string | number)[]) => {
    const record = node as Record<string | number, unknown>;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      const item = record[key];
      const container = typeof item === "object" && item !== null;
      if (!container && (typeof item !== "string" || item.length <= KEPT_CHARS)) continue;
      const size = jsonTextSize(item, sizes);
      if (container && size > BATCH_CHARS) {
        open(item, [...path, key]);
        continue;
      }
      record[key] = null;
      batch.push({ path: [...path, key], node: item });
      chars += size;
      if (chars >= BATCH_CHARS) {
        batches.push(batch);
        batch = [];
        chars = 0;
      }
    }
  };
  open(value, []);
  if (batch.length > 0) batches.push(batch);
  return batches;
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
