/** Reads a JSON text column holding a string list; bad or empty data gives []. */
export function stringList(text: unknown): string[] {
  if (typeof text !== "string" || text === "") return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
