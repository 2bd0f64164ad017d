import type { RtkFilter } from "./filter.ts";

const ROW_START = /^[-dlcbpsD][rwxsStT-]{9}[.@+]?\s+\d+\s/;
// perms links owner group size date name; the date is `Mon DD HH:MM|YYYY` or ISO (--time-style).
const ROW = new RegExp(
  "^([-dlcbpsD])[rwxsStT-]{9}[.@+]?\\s+\\d+\\s+\\S+\\s+\\S+\\s+(\\d[\\d,]*(?:,\\s*\\d+)?)\\s+" +
    "(?:\\w{3}\\s+\\d{1,2}\\s+(?:\\d{1,2}:\\d{2}|\\d{4})|\\d{1,2}\\s+\\w{3}\\s+(?:\\d{1,2}:\\d{2}|\\d{4})|" +
    "\\d{4}-\\d{2}-\\d{2}(?:\\s+\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:\\s+[+-]\\d{4})?)?)\\s+(.+)$",
);

/** `ls -l`: permissions, link count, owner, group and date dropped; names (dirs with `/`) and sizes kept. */
export const lsListingFilter: RtkFilter = {
  name: "ls_listing",
  truncatable: true,
  detect(lines) {
    let rows = 0;
    for (const line of lines.slice(0, 50)) if (ROW_START.test(line) && ++rows >= 3) return true;
    return false;
  },
  apply(lines) {
    const out: string[] = [];
    for (const line of lines) {
      if (/^total \d+/.test(line)) continue;
      const row = ROW.exec(line);
      if (!row) {
        out.push(line);
        continue;
      }
      const [, type, size, name] = row;
      if (name === "." || name === "..") continue;
      out.push(type === "d" ? `${name}/` : `${name}  ${size}`);
    }
    return out;
  },
};
