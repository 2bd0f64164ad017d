import { invalidRequest } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "../shared/limits.ts";

/** Refs nested deeper than this are cut, so a pathological schema cannot blow the stack. */
const MAX_REF_DEPTH = 16;

/** The only `format` values Gemini accepts on strings. */
const KEPT_FORMATS: ReadonlySet<string> = new Set(["enum", "date-time"]);

type Schema = Record<string, unknown>;
type Defs = Readonly<Record<string, unknown>>;

/**
 * Where the walk is: refs inlined on the way (`refs`), schema nesting with refs inlined (`level`), and
 * the nodes reduced so far for the whole tool (shared). Inlining refs can multiply a small schema into
 * a deep or huge one, so both are bounded and the client is told which limit its schema hit.
 */
interface Walk {
  readonly refs: number;
  readonly level: number;
  readonly budget: { nodes: number };
  readonly tool: string;
}

/**
 * Reduces a JSON schema to the OpenAPI subset Gemini function declarations accept: refs inlined,
 * `const` → one-value enum, null unions → `nullable`, and every keyword Gemini rejects dropped
 * (`$schema`, `additionalProperties`, `default`, `examples`, exclusive bounds, unknown formats…).
 */
export function reduceSchema(schema: Readonly<Record<string, unknown>>, tool = "a tool"): Schema {
  const defs: Record<string, unknown> = {};
  if (isRecord(schema.definitions)) Object.assign(defs, schema.definitions);
  if (isRecord(schema.$defs)) Object.assign(defs, schema.$defs);
  return reduceNode(schema, defs, new Set(), { refs: 0, level: 0, budget: { nodes: 0 }, tool });
}

/** One level further into the schema (properties, items, union and allOf members). */
function deeper(at: Walk): Walk {
  return { ...at, level: at.level + 1 };
}

/** Counts a node against the tool's limits; a schema past them is the client's 400. */
function enter(at: Walk): void {
  if (at.level > MAX_SCHEMA_DEPTH) {
    throw invalidRequest(
      `tools: the parameters of ${at.tool} nest deeper than ${MAX_SCHEMA_DEPTH} levels with $refs inlined`,
    );
  }
  if (++at.budget.nodes > MAX_SCHEMA_NODES) {
    throw invalidRequest(
      `tools: the parameters of ${at.tool} expand to more than ${MAX_SCHEMA_NODES} schemas with $refs inlined`,
    );
  }
}

function refName(ref: string): string | undefined {
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  return match ? match[1].replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

function reduceNode(node: unknown, defs: Defs, resolving: ReadonlySet<string>, at: Walk): Schema {
  if (!isRecord(node)) return {};
  enter(at);
  if (typeof node.$ref === "string") return reduceRef(node, node.$ref, defs, resolving, at);
  const out: Schema = {};
  let nullable = node.nullable === true;

  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  const concrete = types.filter((t): t is string => typeof t === "string" && t !== "null");
  if (types.includes("null")) nullable = true;
  if (concrete.length === 1) out.type = concrete[0];
  else if (concrete.length > 1) out.anyOf = concrete.map((type) => ({ type }));

  if (typeof node.format === "string" && KEPT_FORMATS.has(node.format)) out.format = node.format;
  let description = typeof node.description === "string" ? node.description : undefined;

  const values = enumValues(node);
  if (values !== undefined) {
    if (values.includes(null)) nullable = true;
    const present = values.filter((value) => value !== null);
    if (present.length > 0 && present.every((value) => typeof value === "string")) {
      out.enum = present;
      out.type ??= "string";
    } else if (present.length > 0) {
      // Gemini only takes string enums; other values survive as guidance in the description.
      const note = `Allowed values: ${present.map((value) => JSON.stringify(value)).join(", ")}.`;
      description = description === undefined ? note : `${description} ${note}`;
      out.type ??= jsonTypeOf(present[0]);
    }
  }
  if (description !== undefined) out.description = description;

  if (isRecord(node.properties)) {
    const properties: Schema = {};
    for (const [name, property] of Object.entries(node.properties)) {
      properties[name] = reduceNode(property, defs, resolving, deeper(at));
    }
    out.properties = properties;
    out.type ??= "object";
    if (Array.isArray(node.required)) {
      const required = node.required.filter((name): name is string =>
        typeof name === "string" && Object.hasOwn(properties, name)
      );
      if (required.length > 0) out.required = required;
    }
  }

  const items = Array.isArray(node.items) ? node.items[0] : node.items;
  if (isRecord(items)) {
    out.items = reduceNode(items, defs, resolving, deeper(at));
    out.type ??= "array";
  }
  for (const key of ["minItems", "maxItems", "minimum", "maximum"] as const) {
    if (typeof node[key] === "number") out[key] = node[key];
  }

  const union = [node.anyOf, node.oneOf].find(Array.isArray);
  if (union) nullable = mergeUnion(out, union, defs, resolving, deeper(at)) || nullable;
  if (Array.isArray(node.allOf)) mergeAllOf(out, node.allOf, defs, resolving, deeper(at));

  if (nullable) out.nullable = true;
  return out;
}

function enumValues(node: Schema): unknown[] | undefined {
  if (Array.isArray(node.enum)) return node.enum;
  if (node.const !== undefined) return [node.const];
  return undefined;
}

function jsonTypeOf(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "boolean") return "boolean";
  return "string";
}

function reduceRef(
  node: Schema,
  ref: string,
  defs: Defs,
  resolving: ReadonlySet<string>,
  at: Walk,
): Schema {
  const name = refName(ref);
  const target = name === undefined ? undefined : defs[name];
  const siblings = typeof node.description === "string" ? { description: node.description } : {};
  if (name === undefined || !isRecord(target) || resolving.has(name) || at.refs >= MAX_REF_DEPTH) {
    // A recursive or external ref cannot be inlined; an open object is the closest Gemini can take.
    return { type: "object", ...siblings };
  }
  const resolved = reduceNode(target, defs, new Set([...resolving, name]), { ...at, refs: at.refs + 1 });
  return { ...resolved, ...siblings };
}

/** Folds anyOf/oneOf into `out`; returns whether a null variant made the value nullable. */
function mergeUnion(
  out: Schema,
  variants: readonly unknown[],
  defs: Defs,
  resolving: ReadonlySet<string>,
  at: Walk,
): boolean {
  let nullable = false;
  const kept: Schema[] = [];
  for (const variant of variants) {
    if (isRecord(variant) && variant.type === "null") {
      nullable = true;
      continue;
    }
    const reduced = reduceNode(variant, defs, resolving, at);
    if (reduced.nullable === true) nullable = true;
    delete reduced.nullable;
    kept.push(reduced);
  }
  if (kept.length === 1) {
    for (const [key, value] of Object.entries(kept[0])) {
      if (key === "description" && out.description !== undefined) continue;
      out[key] = value;
    }
  } else if (kept.length > 1) {
    out.anyOf = kept;
  }
  return nullable;
}

/** Folds allOf into `out`: properties merged, required unioned, the first type and description kept. */
function mergeAllOf(
  out: Schema,
  parts: readonly unknown[],
  defs: Defs,
  resolving: ReadonlySet<string>,
  at: Walk,
): void {
  for (const part of parts) {
    const reduced = reduceNode(part, defs, resolving, at);
    for (const [key, value] of Object.entries(reduced)) {
      if (key === "properties" && isRecord(value)) {
        out.properties = { ...(isRecord(out.properties) ? out.properties : {}), ...value };
      } else if (key === "required" && Array.isArray(value)) {
        const required = Array.isArray(out.required) ? out.required : [];
        out.required = [...new Set([...required, ...value])];
      } else if (out[key] === undefined) {
        out[key] = value;
      }
    }
  }
}
