import { isRecord } from "../shared/mod.ts";

/**
 * Gemini `parameters` use OpenAPI type names, often upper case (`OBJECT`, `STRING`, as the Google
 * SDKs send them). Other formats need JSON-schema names, so types are lower-cased throughout; the
 * rest is kept as written.
 */
export function jsonSchemaFromOpenApi(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") out.type = value.toLowerCase();
    else if (key === "properties" && isRecord(value)) out.properties = mapValues(value);
    else if (key === "items" && isRecord(value)) out.items = jsonSchemaFromOpenApi(value);
    else if (key === "anyOf" && Array.isArray(value)) {
      out.anyOf = value.map((entry) => isRecord(entry) ? jsonSchemaFromOpenApi(entry) : entry);
    } else out[key] = value;
  }
  return out;
}

function mapValues(properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) {
    out[name] = isRecord(value) ? jsonSchemaFromOpenApi(value) : value;
  }
  return out;
}
