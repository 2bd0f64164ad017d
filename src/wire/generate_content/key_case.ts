import { isRecord } from "../shared/mod.ts";

/**
 * Renames snake_case keys of one object level to camelCase. The Gemini REST API accepts both spellings
 * (proto JSON), so clients may send either; values are left untouched because they can hold user
 * data (tool arguments, JSON schemas) whose keys must survive as written. A camelCase key wins over
 * its snake_case twin.
 */
export function camelKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  let renamed = false;
  for (const key of Object.keys(value)) {
    if (key.includes("_")) {
      renamed = true;
      break;
    }
  }
  if (!renamed) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camel !== key && camel in value) continue;
    out[camel] = field;
  }
  return out;
}
