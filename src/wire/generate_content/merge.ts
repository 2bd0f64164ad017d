import { isRecord } from "../shared/mod.ts";

/**
 * Merges own-format extra fields under a freshly built object: nested plain objects merge key by key,
 * and on any other conflict the built value wins, so extra can restore what the decoder did not map
 * but never undo what the gateway decided.
 */
export function mergeUnder(built: Record<string, unknown>, extra: Readonly<Record<string, unknown>>) {
  const out: Record<string, unknown> = { ...extra };
  for (const [key, value] of Object.entries(built)) {
    if (value === undefined) continue;
    const under = out[key];
    out[key] = isRecord(value) && isRecord(under) ? mergeUnder(value, under) : value;
  }
  return out;
}
