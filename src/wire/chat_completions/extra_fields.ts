import type { Extra } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";

/**
 * Merges extra fields into a wire object being built. Values the encoder already set win (they carry
 * the gateway's deliberate edits); nested plain objects merge key by key, so an unmapped sub-field
 * (`function.strict`, `image_url.foo`) lands beside the mapped ones.
 */
export function mergeExtraFields(
  target: Record<string, unknown>,
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  for (const [key, value] of Object.entries(fields)) {
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
  for (const [key, value] of Object.entries(source)) {
    if (known.has(key) || value === undefined) continue;
    (out ??= {})[key] = value;
  }
  return out;
}

/** Wraps unmapped fields as an Extra tagged with the chat-completions format. */
export function chatExtra(fields: Record<string, unknown> | undefined): Extra | undefined {
  return fields ? { format: "chat_completions", fields } : undefined;
}
