import type { Extra } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

// The loops below walk keys with `for…in` + `Object.hasOwn` rather than `Object.entries`: same keys in
// the same order, without allocating an entry array per object on every request.

/**
 * Merges extra fields into a wire object being built. Values the encoder already set win (they carry
 * the gateway's deliberate edits); nested plain objects merge key by key, so an unmapped sub-field
 * (`function.strict`, `image_url.foo`) lands beside the mapped ones.
 */
export function mergeExtraFields(
  target: Record<string, unknown>,
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    const current = target[key];
    if (current === undefined) target[key] = value;
    else if (isRecord(current) && isRecord(value)) target[key] = mergeExtraFields({ ...current }, value);
  }
  return target;
}

/** Returns `source` without the keys in `known`, or undefined when nothing is left. */
export function unknownFields(
  source: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key in source) {
    if (!Object.hasOwn(source, key) || known.has(key)) continue;
    const value = source[key];
    if (value !== undefined) (out ??= {})[key] = value;
  }
  return out;
}

/** Wraps unmapped fields as an Extra tagged with the chat-completions format. */
export function chatExtra(fields: Record<string, unknown> | undefined): Extra | undefined {
  return fields ? { format: "chat_completions", fields } : undefined;
}

/** Sets `target.extra` when there are unmapped fields; without any, no `extra` key is written at all. */
export function withChatExtra<T extends { extra?: Extra }>(
  target: T,
  fields: Record<string, unknown> | undefined,
): T {
  if (fields) target.extra = { format: "chat_completions", fields };
  return target;
}
