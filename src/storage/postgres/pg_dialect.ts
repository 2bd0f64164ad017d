/**
 * The few places where the repositories' SQL (written for SQLite) differs from PostgreSQL's, translated
 * once per statement text: `?` placeholders become `$n`, `BEGIN IMMEDIATE` becomes `BEGIN`, and
 * `json_each(x) j` becomes `json_array_elements_text(x::json) AS j(value)` (column `value` in both).
 */
export function toPostgres(sql: string): string {
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote !== null) {
      out += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === "?") {
      // `?NNN` names its parameter; a bare `?` takes the next number after the largest so far (SQLite's rule).
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (digits !== undefined) {
        out += `$${digits}`;
        n = Math.max(n, Number(digits));
        i += digits.length;
      } else out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out
    .replace(/^\s*BEGIN\s+IMMEDIATE\s*$/i, "BEGIN")
    .replace(
      /\bjson_each\(([^)]+)\)(\s+(?:AS\s+)?(?!WHERE\b|ON\b|JOIN\b|ORDER\b|GROUP\b|LIMIT\b)(\w+))?/gi,
      (_m, arg: string, _a, alias: string | undefined) =>
        `json_array_elements_text((${arg})::json) AS ${alias ?? "json_each"}(value)`,
    );
}
