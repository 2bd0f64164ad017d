import type { RtkFilter } from "./filter.ts";

const BRANCH = /^((?:│ {3}|\| {3}| {4})*)(?:├── |└── |\|-- |`-- )/;

/**
 * tree output: the box-drawing prefixes (several tokens per line) become two spaces per level. Which
 * entry is the last of its directory follows from the indentation of the next line, so nothing is lost.
 */
export const treeOutputFilter: RtkFilter = {
  name: "tree_output",
  detect(lines) {
    let branches = 0;
    for (const line of lines.slice(0, 200)) if (BRANCH.test(line) && ++branches >= 3) return true;
    return false;
  },
  apply(lines) {
    return lines.map((line) => {
      const match = BRANCH.exec(line);
      if (!match) return line;
      const depth = match[1].length / 4;
      return `${"  ".repeat(depth + 1)}${line.slice(match[0].length)}`;
    });
  },
};
