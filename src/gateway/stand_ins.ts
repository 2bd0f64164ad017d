/**
 * Base64 data URLs held in pieces (src/long_strings.ts) given to the wire codecs as stand-ins: a request's
 * decoder takes a data URL apart (`url.slice(comma + 1)`), and reading any character of a 30 MiB string
 * held in pieces makes it whole, one step of 20-40 ms on a quiet machine (measured 2026-11-29: one 22 MiB
 * image to a chat upstream held the serving thread 89 ms, eight at once 328 ms). So before decoding, each
 * such URL becomes its header and a short stand-in for its payload (`LongStrings.standIn`); the codecs carry
 * the stand-in where the payload goes (a data URL again, a Messages `source.data`, a Gemini `inlineData`),
 * and the upstream body's encoder (src/gateway/sliced_json.ts, which writes every upstream JSON body of the
 * request, subscription envelopes included) writes the payload's pieces in its place. The
 * payload is opaque to everything between: image token estimates are flat, traces omit inline bytes. The
 * same for a bare base64 payload (a Messages image or document source, a Gemini `inlineData`), and for an
 * Ollama `images` entry past the characters its type is read from.
 */
import { LONG_STRING_CHARS, type LongStrings, PIECE_CHARS } from "../long_strings.ts";
import { nextTurn } from "../next_turn.ts";
import { SNIFFED_BASE64_CHARS } from "../wire/local_runner/mod.ts";

/** The fields a client puts a data URL in: chat's `image_url.url`, Responses' `image_url` and `file_data`. */
const DATA_URL_FIELDS: ReadonlySet<string> = new Set(["url", "image_url", "file_data"]);

/** Objects whose `data` is a bare base64 payload: Gemini's inline data (a Messages source says `base64`). */
const INLINE_DATA_FIELDS: ReadonlySet<string> = new Set(["inlineData", "inline_data"]);

/**
 * Lists of images as base64 (Ollama's `images`, bare or as data URLs): a bare one keeps the characters its
 * decoder reads the image type from, before its stand-in.
 */
const IMAGE_LIST_FIELDS: ReadonlySet<string> = new Set(["images"]);

/** The head of a base64 data URL, up to its payload. */
const DATA_URL_HEAD = /^data:[^,]*;base64,/;

/**
 * `body` with each long base64 payload it holds replaced by a stand-in (a data URL in a data URL field keeps
 * its head; a Messages base64 `source.data` or a Gemini `inlineData.data` is replaced whole); copied only
 * along the way to one (the same value when there is none).
 */
export function withStandIns(body: unknown, longStrings: LongStrings): unknown {
  return longStrings.size === 0 ? body : replaced(body, "", longStrings);
}

function replaced(node: unknown, key: string, longStrings: LongStrings): unknown {
  if (Array.isArray(node)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const item = replaced(node[i], "", longStrings);
      if (item !== node[i]) (out ??= [...node])[i] = item;
    }
    return out ?? node;
  }
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  const bareData = record.type === "base64" || INLINE_DATA_FIELDS.has(key);
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(record)) {
    const item = typeof v === "string"
      ? standInFor(v, k, bareData, longStrings)
      : IMAGE_LIST_FIELDS.has(k) && Array.isArray(v)
      ? imageList(v, longStrings)
      : replaced(v, k, longStrings);
    if (item !== v) (out ??= { ...record })[k] = item;
  }
  return out ?? node;
}

/** `text` (the value of field `key`), or what stands in for its payload. */
function standInFor(text: string, key: string, bareData: boolean, longStrings: LongStrings): string {
  if (text.length < LONG_STRING_CHARS) return text;
  const isBare = bareData && key === "data";
  if (!isBare && !DATA_URL_FIELDS.has(key)) return text;
  const pieces = longStrings.piecesOf(text);
  if (pieces === undefined) return text;
  if (isBare) return longStrings.standIn(pieces);
  const head = DATA_URL_HEAD.exec(pieces[0]);
  if (head === null) return text;
  return head[0] + longStrings.standIn([pieces[0].slice(head[0].length), ...pieces.slice(1)]);
}

/** A list of base64 images with each long one's payload, after its type's characters, as a stand-in. */
function imageList(list: readonly unknown[], longStrings: LongStrings): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const text = list[i];
    if (typeof text !== "string" || text.length < LONG_STRING_CHARS) continue;
    const pieces = longStrings.piecesOf(text);
    if (pieces === undefined) continue;
    const head = DATA_URL_HEAD.exec(pieces[0])?.[0] ?? pieces[0].slice(0, SNIFFED_BASE64_CHARS);
    (out ??= [...list])[i] = head + longStrings.standIn([pieces[0].slice(head.length), ...pieces.slice(1)]);
  }
  return out ?? list;
}

/** Bytes per base64 piece: a multiple of three, so the pieces' base64 joins to the whole's; PIECE_CHARS each. */
const BASE64_PIECE_BYTES = PIECE_CHARS / 4 * 3;
/** Files whose base64 pieces were made (a fallback's next attempt takes them again). */
const base64Pieces = new WeakMap<Uint8Array, readonly string[]>();

/**
 * A file's bytes as base64 for an upstream's JSON body (an uploaded image sent to Gemini inline): the text
 * when it is short, else a stand-in for its base64 in pieces, each made on a turn of its own. Encoding a 30
 * MiB upload at once was one step of about 25 ms, and the body's encoder would have read the 40 MiB string
 * whole again; the encoder writes the pieces a turn apart instead (see `withStandIns`).
 */
export async function base64StandIn(bytes: Uint8Array, longStrings: LongStrings): Promise<string> {
  if (bytes.length < BASE64_PIECE_BYTES) return bytes.toBase64();
  let pieces = base64Pieces.get(bytes);
  if (pieces === undefined) {
    const made: string[] = [];
    for (let at = 0; at < bytes.length; at += BASE64_PIECE_BYTES) {
      await nextTurn();
      made.push(bytes.subarray(at, at + BASE64_PIECE_BYTES).toBase64());
    }
    base64Pieces.set(bytes, pieces = made);
  }
  return longStrings.standIn(pieces);
}
