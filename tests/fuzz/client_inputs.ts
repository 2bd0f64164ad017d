/**
 * Hostile client requests for one surface: random mutations of valid requests (a field replaced by a
 * hostile value, deleted, or joined by unknown ones), whole bodies that are not what they claim, byte
 * damage, hostile model names and tool-schema attacks.
 */
import type { FuzzInput, Rng } from "./fuzzer.ts";
import {
  damageBytes,
  deepNest,
  deepSchema,
  hostileValue,
  jsonString,
  refBomb,
  UNICODE_EDGES,
} from "./hostile_values.ts";
import { type FuzzSurface, PREFIXES, weatherTool } from "./surfaces.ts";

/** Stands where a hostile raw value will be spliced into serialised JSON. */
const SLOT = "\u0001slot\u0001";
const SLOT_JSON = JSON.stringify(SLOT);

/** Builds input `index` of a client-surface campaign; `big` allows the largest hostile values. */
export function clientInput(surface: FuzzSurface, rng: Rng, big: boolean): FuzzInput {
  const stream = rng.chance(0.4);
  const model = `${rng.pick(PREFIXES)}/ok`;
  const base = surface.body(model, rng.pick(["hi", "Weather in Paris?", "é😀", ""]), stream);
  if (rng.chance(0.3)) base[surface.toolsField] = SLOT;
  const withTools = (label: string, tools: string): FuzzInput =>
    input(surface, rng, label, model, stream, splice(base, surface.toolsField, tools));
  const text = JSON.stringify(base).replace(SLOT_JSON, `[${weatherTool(surface)}]`);
  switch (rng.int(10)) {
    case 0:
    case 1:
    case 2:
      return input(surface, rng, "field", model, stream, mutateField(rng, base, big));
    case 3:
      return input(surface, rng, "bytes", model, stream, damageBytes(rng, text));
    case 4:
      return input(surface, rng, "whole body", model, stream, wholeBody(rng, big));
    case 5:
      return hostileModel(surface, rng, base, stream);
    case 6: {
      const depth = rng.size(20, big ? 8_000 : 6_000);
      return withTools(`tool schema ${depth} deep`, `[${surface.tool("deep", deepSchema(rng, depth))}]`);
    }
    case 7:
      return withTools("ref bomb", `[${surface.tool("bomb", refBomb(rng.size(2, 12), rng.size(2, 16)))}]`);
    case 8: {
      const count = rng.size(100, 3_000);
      const tools = Array.from({ length: count }, (_, i) => surface.tool(`t${i}`, '{"type":"object"}'));
      return withTools(`${count} tools`, `[${tools.join(",")}]`);
    }
    default:
      return input(surface, rng, "valid", model, stream, text);
  }
}

function input(
  surface: FuzzSurface,
  rng: Rng,
  label: string,
  model: string,
  stream: boolean,
  body: string | Uint8Array<ArrayBuffer>,
): FuzzInput {
  const finished = typeof body === "string" ? body.replace(SLOT_JSON, "[]") : body;
  return { label, path: surface.path(rng, model, stream), body: finished, envelope: surface.envelope };
}

/** Serialises `body` with `field` set to raw JSON text. */
function splice(body: Record<string, unknown>, field: string, raw: string): string {
  return JSON.stringify({ ...body, [field]: SLOT }).replace(SLOT_JSON, () => raw);
}

/** One field anywhere in the body replaced by a hostile value, deleted, or given unknown neighbours. */
function mutateField(rng: Rng, body: Record<string, unknown>, big: boolean): string {
  const copy = structuredClone(body);
  const holders = containers(copy);
  const holder = rng.pick(holders);
  const keys = Object.keys(holder);
  const key = keys.length > 0 && rng.chance(0.85) ? rng.pick(keys) : rng.pick(["extra", "__proto__", "0"]);
  const op = rng.int(4);
  if (op === 0 && keys.length > 0) delete (holder as Record<string, unknown>)[key];
  // defineProperty, so a `__proto__` key becomes a plain field as JSON.parse would make it.
  else {Object.defineProperty(holder, key, {
      value: SLOT,
      enumerable: true,
      writable: true,
      configurable: true,
    });}
  return JSON.stringify(copy).replace(SLOT_JSON, () => hostileValue(rng, big));
}

/** Every object and array in a (small, valid) body. */
function containers(value: unknown): object[] {
  const out: object[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    out.push(node);
    stack.push(...Object.values(node));
  }
  return out;
}

function wholeBody(rng: Rng, big: boolean): string {
  switch (rng.int(7)) {
    case 0:
      return "";
    case 1:
      return rng.pick(["null", "1", '"x"', "[]", "true", "{", '{"model":', "\ufeff{}", "{}{}"]);
    case 2:
      return deepNest(rng, rng.size(100, big ? 200_000 : 20_000));
    case 3:
      return hostileValue(rng, big);
    case 4:
      return `{"model":${jsonString(rng.pick(UNICODE_EDGES))},"messages":${hostileValue(rng, big)}}`;
    case 5:
      return " ".repeat(rng.size(1, 100_000));
    default:
      return `{${Array.from({ length: rng.size(10, 20_000) }, (_, i) => `"k${i}":${i}`).join(",")}}`;
  }
}

/** A model name that is too long, has lone surrogates, or is otherwise odd, in the body or the URL. */
function hostileModel(
  surface: FuzzSurface,
  rng: Rng,
  base: Record<string, unknown>,
  stream: boolean,
): FuzzInput {
  const prefix = rng.pick([...PREFIXES, "", "nope"]);
  const tail = rng.chance(0.3)
    ? "m".repeat(rng.size(200, 100_000))
    : rng.pick(UNICODE_EDGES).repeat(rng.size(1, 8));
  // In a URL path the fetch client itself refuses very long URLs; 8,000 characters is what servers take.
  const fitted = surface.envelope === "generate" ? tail.slice(0, 8_000) : tail;
  const model = prefix === "" ? fitted : `${prefix}/${fitted}`;
  const body = JSON.stringify({ ...base, model }).replace(SLOT_JSON, "[]");
  return { label: "model name", path: surface.path(rng, model, stream), body, envelope: surface.envelope };
}
