/**
 * Limits on client input that real clients never reach (docs/limits.md). They turn hostile shapes that
 * would overflow the stack, throw deep inside an encoder or hold the event loop into a 400 that says
 * which limit was hit, in the client's own error envelope.
 */
import { invalidRequest, type NeutralRequest } from "../../model/mod.ts";
import { invalidAt } from "./zod_issues.ts";

/** Deepest nesting of arrays and objects accepted in a JSON body (real requests stay under ~20). */
export const MAX_JSON_DEPTH = 128;

/**
 * Most JSON values (objects, arrays and everything in them) in one request body. A long agent session
 * holds ~10-30 k; validation costs about 1 µs per value (more per invalid one), so this bounds how long
 * decoding one body can hold the event loop (~50-70 ms at worst).
 */
export const MAX_JSON_VALUES = 50_000;

/** Longest model name accepted, in UTF-16 code units (provider/model ids are under ~100). */
export const MAX_MODEL_NAME_LENGTH = 256;

/** Most tool (function) declarations in one request. */
export const MAX_TOOLS = 512;

/** The wording of a request over MAX_TOOLS (schemas check it before validating any tool). */
export const TOOLS_TOO_MANY = `must have at most ${MAX_TOOLS} tool declarations`;

/** Deepest nesting of a tool's parameter schema once its `$ref`s are inlined. */
export const MAX_SCHEMA_DEPTH = 64;

/** Most schema nodes one tool's parameters may expand to once its `$ref`s are inlined. */
export const MAX_SCHEMA_NODES = 20_000;

/**
 * One pass over a parsed JSON value: whether it nests arrays and objects deeper than `maxDepth`, and how
 * many values it holds (itself included; counting stops just past `maxValues`). Iterative with an explicit
 * stack, so a value nested a million deep cannot overflow it; it stops at the first limit it meets.
 */
export function measureJson(
  value: unknown,
  maxDepth: number,
  maxValues = Infinity,
): { readonly tooDeep: boolean; readonly values: number } {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  let values = 0;
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop() as number;
    values++;
    if (typeof node !== "object" || node === null) continue;
    if (depth + 1 > maxDepth) return { tooDeep: true, values };
    const children = Array.isArray(node) ? node : Object.values(node);
    if (values + children.length > maxValues) return { tooDeep: false, values: values + children.length };
    for (const child of children) {
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      } else {
        values++;
      }
    }
  }
  return { tooDeep: false, values };
}

/**
 * Refuses a parsed body nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES values;
 * returns how many values it holds (callers pace big bodies by it). `what` names it in the message.
 */
export function checkJsonShape(value: unknown, what = "body"): number {
  const { tooDeep, values } = measureJson(value, MAX_JSON_DEPTH, MAX_JSON_VALUES);
  if (tooDeep) {
    throw invalidRequest(
      `${what}: JSON is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
    );
  }
  if (values > MAX_JSON_VALUES) {
    throw invalidRequest(
      `${what}: JSON holds more than ${MAX_JSON_VALUES} values (objects, arrays and their items)`,
    );
  }
  return values;
}

/** Why a model name cannot be used, or undefined when it can. */
export function modelNameProblem(model: string): string | undefined {
  if (model.length > MAX_MODEL_NAME_LENGTH) {
    return `must be at most ${MAX_MODEL_NAME_LENGTH} characters long`;
  }
  // A lone surrogate cannot be put in a URL or a header; it is never part of a real model id.
  if (!model.isWellFormed()) return "must be valid Unicode text (it contains a lone surrogate)";
  return undefined;
}

/** A decoded request within the limits every surface shares (model name, tool count), else a 400. */
export function withinLimits(request: NeutralRequest): NeutralRequest {
  const problem = modelNameProblem(request.model);
  if (problem !== undefined) throw invalidAt(["model"], problem);
  if (request.tools.length > MAX_TOOLS) {
    throw invalidAt(["tools"], TOOLS_TOO_MANY);
  }
  return request;
}
