/**
 * Allocation-free twins of the zod schemas in schema.ts, for the request hot path. zod's `safeParse`
 * copies every object level it validates, which on a small request costs more than the rest of the
 * decoding. Each guard here returns true only for input its schema accepts as is (the guard may be
 * stricter, never looser), so the decoder can use the input itself; anything a guard turns down goes
 * through zod, which then either accepts it or finds the problem. Error messages therefore come from
 * zod's issues alone, worded by the shared parseAt. Keep each guard next to its schema's rules when either changes.
 */
import type { z } from "zod";
import type {
  assistantMessageSchema,
  imagePartSchema,
  requestSchema,
  systemMessageSchema,
  textPartSchema,
  toolMessageSchema,
  userMessageSchema,
} from "./schema.ts";

type Json = Record<string, unknown>;

/**
 * A JSON-style object zod would copy key for key. Other prototypes are left to zod, and so is an own
 * `__proto__` key (JSON.parse makes one), which zod's copy does not keep.
 */
function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, "__proto__");
}

function isNullish(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function isNullishString(value: unknown): boolean {
  return isNullish(value) || typeof value === "string";
}

// zod's `int()` means a safe integer.
function isNullishInt(value: unknown, min = Number.MIN_SAFE_INTEGER): boolean {
  return isNullish(value) || (Number.isSafeInteger(value) && (value as number) >= min);
}

function isNullishNumber(value: unknown): boolean {
  return isNullish(value) || Number.isFinite(value);
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value.length > 0;
}

/** `contentSchema`: a string, or an array of objects with a string `type`. */
function isContent(value: unknown): boolean {
  if (typeof value === "string") return true;
  if (!Array.isArray(value)) return false;
  for (const part of value) if (!isPlainObject(part) || typeof part.type !== "string") return false;
  return true;
}

/** `toolSchema` (one entry of `tools`). */
function isTool(value: unknown): boolean {
  if (!isPlainObject(value) || !isOptionalString(value.type)) return false;
  const fn = value.function;
  if (fn === undefined) return true;
  return isPlainObject(fn) && isNonEmptyString(fn.name) && isNullishString(fn.description) &&
    (isNullish(fn.parameters) || isPlainObject(fn.parameters));
}

/** `toolCallSchema` (one entry of an assistant message's `tool_calls`). */
function isToolCall(value: unknown): boolean {
  if (!isPlainObject(value) || !isNonEmptyString(value.id) || !isOptionalString(value.type)) return false;
  const fn = value.function;
  if (!isPlainObject(fn) || typeof fn.name !== "string") return false;
  return isNullishString(fn.arguments) || isPlainObject(fn.arguments);
}

function isArrayOf(value: unknown, item: (value: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const entry of value) if (!item(entry)) return false;
  return true;
}

/** `requestSchema` (the top level; messages are checked one by one later). */
export function isPlainRequest(value: unknown): value is z.infer<typeof requestSchema> {
  if (!isPlainObject(value) || !isNonEmptyString(value.model)) return false;
  const v = value;
  const stop = v.stop;
  const toolChoice = v.tool_choice;
  return Array.isArray(v.messages) && v.messages.length > 0 &&
    (isNullish(v.tools) || isArrayOf(v.tools, isTool)) &&
    (isNullishString(toolChoice) || (isPlainObject(toolChoice) && typeof toolChoice.type === "string")) &&
    (isNullishString(stop) || isArrayOf(stop, (s) => typeof s === "string")) &&
    isNullishInt(v.max_tokens, 0) && isNullishInt(v.max_completion_tokens, 0) &&
    isNullishNumber(v.temperature) && isNullishNumber(v.top_p) && isNullishInt(v.seed) &&
    isNullishNumber(v.presence_penalty) && isNullishNumber(v.frequency_penalty) &&
    isNullishString(v.reasoning_effort) && (isNullish(v.stream) || typeof v.stream === "boolean");
}

/** `systemMessageSchema`. */
export function isPlainSystemMessage(value: unknown): value is z.infer<typeof systemMessageSchema> {
  return isPlainObject(value) && (value.role === "system" || value.role === "developer") &&
    isContent(value.content) && isOptionalString(value.name);
}

/** `userMessageSchema`. */
export function isPlainUserMessage(value: unknown): value is z.infer<typeof userMessageSchema> {
  return isPlainObject(value) && value.role === "user" && isContent(value.content) &&
    isOptionalString(value.name);
}

/** `assistantMessageSchema`. */
export function isPlainAssistantMessage(value: unknown): value is z.infer<typeof assistantMessageSchema> {
  return isPlainObject(value) && value.role === "assistant" &&
    (isNullish(value.content) || isContent(value.content)) && isOptionalString(value.name) &&
    (isNullish(value.tool_calls) || isArrayOf(value.tool_calls, isToolCall)) &&
    isNullishString(value.reasoning_content);
}

/** `toolMessageSchema`. */
export function isPlainToolMessage(value: unknown): value is z.infer<typeof toolMessageSchema> {
  return isPlainObject(value) && value.role === "tool" && typeof value.tool_call_id === "string" &&
    (isNullish(value.content) || isContent(value.content));
}

/** `textPartSchema`. */
export function isPlainTextPart(value: unknown): value is z.infer<typeof textPartSchema> {
  return isPlainObject(value) && value.type === "text" && typeof value.text === "string";
}

/** `imagePartSchema`. */
export function isPlainImagePart(value: unknown): value is z.infer<typeof imagePartSchema> {
  if (!isPlainObject(value) || value.type !== "image_url") return false;
  const image = value.image_url;
  return typeof image === "string" ||
    (isPlainObject(image) && typeof image.url === "string" && isNullishString(image.detail));
}
