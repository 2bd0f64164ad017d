/**
 * Base64 data URLs held in pieces (src/long_strings.ts) given to the wire codecs as stand-ins: a request's
 * decoder takes a data URL apart (`url.slice(comma + 1)`), and reading any character of a 30 MiB string
 * held in pieces makes it whole, one step of 20-40 ms on a quiet machine (measured 2026-11-29: one 22 MiB
 * image to a chat upstream held the serving thread 89 ms, eight at once 328 ms). So before decoding, each
 * such URL becomes its header and a short stand-in for its payload (`LongStrings.standIn`); the codecs carry
 * the stand-in where the payload goes (a data URL again, a Messages `source.data`, a Gemini `inlineData`),
 * and the upstream body's encoder (src/gateway/sliced_json.ts) writes the payload's pieces in its place. The
 * payload is opaque to everything between: image token estimates are flat, traces omit inline bytes.
 */
import { LONG_STRING_CHARS, type LongStrings } from "../long_strings.ts";

/** The fields a client puts a data URL in: chat's `image_url.url`, Responses' `image_url` and `file_data`. */
const DATA_URL_FIELDS: ReadonlySet<string> = new Set(["url", "image_url", "file_data"]);

/** The head of a base64 data URL, up to its payload. */
const DATA_URL_HEAD = /^data:[^,]*;base64,/;

/**
 * `body` with each long base64 data URL it holds in a data URL field replaced by its head and a stand-in for
 * its payload; copied only along the way to one (the same value when there is none).
 */
export function withStandIns(body: unknown, longStrings: LongStrings): unknown {
  return longStrings.size === 0 ? body : replaced(body, "", longStrings);
}

function replaced(node: unknown, key: string, longStrings: LongStrings): unknown {
  if (typeof node === "string") {
    if (node.length < LONG_STRING_CHARS || !DATA_URL_FIELDS.has(key)) return node;
    const pieces = longStrings.piecesOf(node);
    const head = pieces === undefined ? null : DATA_URL_HEAD.exec(pieces[0]);
    if (pieces === undefined || head === null) return node;
    return head[0] + longStrings.standIn([pieces[0].slice(head[0].length), ...pieces.slice(1)]);
  }
  if (Array.isArray(node)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const item = replaced(node[i], "", longStrings);
      if (item !== node[i]) (out ??= [...node])[i] = item;
    }
    return out ?? node;
  }
  if (typeof node !== "object" || node === null) return node;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(node)) {
    const item = replaced(v, k, longStrings);
    if (item !== v) (out ??= { ...node as Record<string, unknown> })[k] = item;
  }
  return out ?? node;
}

/**
 * `value` with every stand-in put back whole: for what writes a value in one step anyway (a subscription
 * call's envelope). The same value when it holds none.
 */
export function resolveStandIns<T>(value: T, longStrings: LongStrings | undefined): T {
  if (longStrings === undefined || !longStrings.hasStandIns) return value;
  const resolve = (node: unknown): unknown => {
    if (typeof node === "string") {
      let out = "";
      let from = 0;
      for (let found = longStrings.standInAt(node, 0); found; found = longStrings.standInAt(node, from)) {
        out += node.slice(from, found.at) + found.pieces.join("");
        from = found.at + found.length;
      }
      return from === 0 ? node : out + node.slice(from);
    }
    if (Array.isArray(node)) return node.map(resolve);
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
  };
  return resolve(value) as T;
}
