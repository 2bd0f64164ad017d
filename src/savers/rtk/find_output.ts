import type { RtkFilter } from "./filter.ts";
import { nonEmpty } from "./filter.ts";

const PATH_LINE = /^[^\s:][^:]*\/[^:]*$/;

function split(path: string): { dir: string; name: string } {
  const trimmed = path.endsWith("/") && path.length > 1 ? path.slice(0, -1) : path;
  const at = trimmed.lastIndexOf("/");
  return at <= 0 ? { dir: at === 0 ? "/" : ".", name: trimmed.slice(at + 1) } : {
    dir: trimmed.slice(0, at),
    name: trimmed.slice(at + 1),
  };
}

/**
 * find output: paths grouped by directory, the directory said once and every name listed after it.
 * Every path survives; only the repeated directory prefixes go.
 */
export const findOutputFilter: RtkFilter = {
  name: "find_output",
  detect(lines) {
    const filled = nonEmpty(lines);
    if (filled.length < 10) return false;
    if (filled.some((line) => /[├└]──|\|-- |`-- /.test(line))) return false;
    return filled.filter((line) => PATH_LINE.test(line) && line.length < 1024).length >= filled.length * 0.95;
  },
  apply(lines) {
    const paths = nonEmpty(lines).map((line) => line.trim());
    const dirs = new Map<string, string[]>();
    const others: string[] = [];
    for (const path of paths) {
      if (!PATH_LINE.test(path)) {
        others.push(path);
        continue;
      }
      const { dir } = split(path);
      if (!dirs.has(dir)) dirs.set(dir, []);
    }
    for (const path of paths) {
      if (!PATH_LINE.test(path)) continue;
      const bare = path.endsWith("/") && path.length > 1 ? path.slice(0, -1) : path;
      // A directory with entries has its own line; listing it under its parent too would repeat it.
      if (dirs.has(bare)) continue;
      const { dir, name } = split(path);
      dirs.get(dir)?.push(name);
    }
    const out = [...others];
    for (const dir of [...dirs.keys()].sort()) {
      const names = dirs.get(dir) ?? [];
      out.push(names.length === 0 ? `${dir}/` : `${dir}/ (${names.length}): ${names.join(", ")}`);
    }
    return out;
  },
};
