/**
 * House rules that a grep can check, as one table: each rule names what may not appear in `src/` and
 * the folders where it may. Add a row for a new rule (e.g. "no SQL outside src/storage").
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assertEquals } from "../helpers/assert.ts";

interface LayeringRule {
  /** What the rule says, as a failure names it. */
  readonly name: string;
  /** What may not appear (tested on each line of source). */
  readonly pattern: RegExp;
  /** Paths under `src/` (with a trailing `/` for a folder) where the pattern is allowed. */
  readonly allowedIn: readonly string[];
}

const RULES: readonly LayeringRule[] = [
  {
    name: "only src/http builds HTTP responses (the core answers with an Answer; DESIGN rule 14)",
    pattern: /new Response\(|Response\.json\(/,
    allowedIn: ["http/"],
  },
];

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every TypeScript file under `dir`, as a path relative to `src/` with `/` separators. */
async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (entry.isFile && entry.name.endsWith(".ts")) {
      files.push(relative(SRC, path).replaceAll("\\", "/"));
    }
  }
  return files;
}

/** `file:line: text` for every line of `src/` that breaks `rule`. */
async function violations(rule: LayeringRule, files: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    if (
      rule.allowedIn.some((allowed) => allowed.endsWith("/") ? file.startsWith(allowed) : file === allowed)
    ) {
      continue;
    }
    const lines = (await Deno.readTextFile(join(SRC, file))).split("\n");
    lines.forEach((line, i) => {
      if (rule.pattern.test(line)) found.push(`src/${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

const files = await sourceFiles(SRC);

for (const rule of RULES) {
  Deno.test(`layering: ${rule.name}`, async () => {
    assertEquals(await violations(rule, files), []);
  });
}

Deno.test("layering: a rule finds what it forbids (the scan reads src/ at all)", async () => {
  const [rule] = RULES;
  // The rule's own home does build responses: with no folder allowed, the scan must find them there.
  const found = await violations({ ...rule, allowedIn: [] }, files);
  assertEquals(found.some((line) => line.startsWith("src/http/")), true);
});
