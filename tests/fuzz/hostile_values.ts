/**
 * Hostile JSON values as raw JSON text: nesting far past any parser's comfort, huge strings, wrong types,
 * unicode edge cases (lone surrogates included), numbers as strings, giant arrays, schema bombs. Raw text
 * because JSON.stringify itself overflows on the deep ones.
 */
import type { Rng } from "./fuzzer.ts";

/** Unicode that breaks naive code: lone surrogates, NUL, BOM, RTL override, non-characters, emoji. */
export const UNICODE_EDGES: readonly string[] = [
  "\ud800",
  "\udfff",
  "a\ud83d",
  "\udc00b",
  "\u0000",
  "\ufeff",
  "\u202e",
  "\uffff",
  "\ud83d\ude00",
  "e\u0301\u0301\u0301",
  "\u2028\u2029",
  "%ED%A0%80",
  "../../etc/passwd",
  "a/b/c/d",
  ":generateContent",
];

/** A JSON string literal of `text` that keeps lone surrogates as `\u` escapes. */
export function jsonString(text: string): string {
  return JSON.stringify(text);
}

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` deep, as text. */
export function deepNest(rng: Rng, depth: number): string {
  if (rng.chance(0.5)) return "[".repeat(depth) + "]".repeat(depth);
  const key = rng.pick(["a", "properties", "items", "content", "x"]);
  return `{"${key}":`.repeat(depth) + "1" + "}".repeat(depth);
}

/** A JSON schema nested `depth` levels through properties/items/anyOf, as text. */
export function deepSchema(rng: Rng, depth: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    switch (rng.int(3)) {
      case 0:
        open.push('{"type":"object","properties":{"p":');
        close.push("}}");
        break;
      case 1:
        open.push('{"type":"array","items":');
        close.push("}");
        break;
      default:
        open.push('{"anyOf":[');
        close.push(',{"type":"null"}]}');
    }
  }
  return open.join("") + '{"type":"string"}' + close.reverse().join("");
}

/**
 * A schema whose `$ref`s fan out: each definition points `width` times at the next, `levels` deep, so
 * inlining it naively yields width^levels nodes.
 */
export function refBomb(width: number, levels: number): string {
  const defs: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < width; i++) {
      properties[`p${i}`] = level + 1 < levels ? { $ref: `#/$defs/d${level + 1}` } : { type: "string" };
    }
    defs[`d${level}`] = { type: "object", properties };
  }
  return JSON.stringify({ type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs: defs });
}

/** A hostile replacement for any value. */
export function hostileValue(rng: Rng, big: boolean): string {
  switch (rng.int(12)) {
    case 0:
      return "null";
    case 1:
      return rng.pick(["true", "false", "0", "-0", "1e308", "-1e308", "1.5", "9007199254740993", "-1"]);
    case 2:
      return rng.pick(['"1"', '"true"', '"null"', '"1e999"', '""', '"NaN"', '"-5"']);
    case 3:
      return "{}";
    case 4:
      return "[]";
    case 5:
      return jsonString(rng.pick(UNICODE_EDGES).repeat(rng.size(1, 64)));
    case 6:
      return jsonString("x".repeat(rng.size(1_000, big ? 4_000_000 : 200_000)));
    case 7:
      return deepNest(rng, rng.size(100, big ? 100_000 : 20_000));
    case 8:
      return `[${Array(rng.size(1_000, big ? 400_000 : 50_000)).fill("0").join(",")}]`;
    case 9:
      return `[${Array(rng.size(10, 2_000)).fill('{"type":"text","text":"hi"}').join(",")}]`;
    case 10:
      return jsonString(Array.from({ length: rng.size(1, 200) }, () => rng.pick(UNICODE_EDGES)).join(""));
    default:
      return `{"${rng.pick(UNICODE_EDGES)}":${rng.pick(["1", '"x"', "null", "[]"])}}`;
  }
}

/** Byte-level damage to serialised JSON: flips, inserts (invalid UTF-8 among them), cuts. */
export function damageBytes(rng: Rng, text: string): Uint8Array<ArrayBuffer> {
  const bytes = Array.from(new TextEncoder().encode(text));
  const edits = rng.size(1, 8);
  for (let i = 0; i < edits && bytes.length > 0; i++) {
    const at = rng.int(bytes.length);
    switch (rng.int(4)) {
      case 0:
        bytes[at] = rng.int(256);
        break;
      case 1:
        bytes.splice(at, 0, rng.pick([0xff, 0xfe, 0xc0, 0xed, 0x80, 0x00, 0x22, 0x5c]));
        break;
      case 2:
        bytes.splice(at, rng.size(1, 16));
        break;
      default:
        bytes.length = at;
    }
  }
  return new Uint8Array(bytes);
}
