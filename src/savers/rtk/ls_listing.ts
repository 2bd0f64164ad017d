import type { RtkFilter } from "./filter.ts";

const ROW_START = /^[-dlcbpsD][rwxsStT-]{9}[.@+]?\s+\d+\s/;
// perms links owner group size date name; the date is `Mon DD HH:MM|YYYY` or ISO (--time-style).
const ROW = new RegExp(
  "^([-dlcbpsD][rwxsStT-]{9}[.@+]?)\\s+\\d+\\s+(\\S+)\\s+(\\S+)\\s+(\\d[\\d,]*(?:,\\s*\\d+)?)\\s+" +
    "(\\w{3}\\s+\\d{1,2}\\s+(?:\\d{1,2}:\\d{2}|\\d{4})|\\d{1,2}\\s+\\w{3}\\s+(?:\\d{1,2}:\\d{2}|\\d{4})|" +
    "\\d{4}-\\d{2}-\\d{2}(?:\\s+\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:\\s+[+-]\\d{4})?)?)\\s+(.+)$",
);

interface Row {
  readonly perms: string;
  readonly owner: string;
  readonly group: string;
  readonly size: string;
  readonly date: string;
  readonly name: string;
}

function parseRow(line: string): Row | undefined {
  const m = ROW.exec(line);
  return m
    ? { perms: m[1], owner: m[2], group: m[3], size: m[4], date: m[5].replace(/\s+/g, " "), name: m[6] }
    : undefined;
}

/**
 * `ls -l`: the column padding goes, and owner and group are said once when every row has the same
 * ones. Permissions, sizes, dates and names stay on every row; the hard-link count is dropped.
 */
export const lsListingFilter: RtkFilter = {
  name: "ls_listing",
  detect(lines) {
    let rows = 0;
    for (const line of lines.slice(0, 50)) if (ROW_START.test(line) && ++rows >= 3) return true;
    return false;
  },
  apply(lines) {
    const rows = lines.map(parseRow);
    const parsed = rows.filter((row): row is Row => row !== undefined);
    const owners = new Set(parsed.map((row) => `${row.owner}:${row.group}`));
    const shared = owners.size === 1 ? [...owners][0] : undefined;
    const out: string[] = [];
    if (shared) out.push(`[rtk: every entry below is owned by ${shared}; link counts omitted]`);
    lines.forEach((line, i) => {
      const row = rows[i];
      if (!row) out.push(line);
      else {
        const owner = shared ? "" : ` ${row.owner}:${row.group}`;
        out.push(`${row.perms}${owner} ${row.size} ${row.date} ${row.name}`);
      }
    });
    return out;
  },
};
