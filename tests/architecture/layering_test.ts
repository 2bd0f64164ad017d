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
  /** Paths the rule applies to; all of `src/` when absent. */
  readonly scope?: readonly string[];
}

const RULES: readonly LayeringRule[] = [
  {
    name: "only src/http builds HTTP responses (the core answers with an Answer; DESIGN rule 14)",
    pattern: /new Response\(|Response\.json\(/,
    allowedIn: ["http/"],
  },
  {
    name: "SQL lives in src/storage only (repositories; DESIGN: no SQL outside storage)",
    pattern:
      /\.prepare\(|\bdb\.exec\(|\bSELECT\s+[\w*(]|\b(INSERT INTO|DELETE FROM|CREATE TABLE|ALTER TABLE) \w|\bUPDATE \w+ SET\b|PRAGMA \w/,
    allowedIn: ["storage/"],
  },
  {
    name: "the wall clock and the environment come from main.ts (passed down; ARCHITECTURE: layers)",
    pattern: /\bDate\.now\b|\bDeno\.env\b/,
    allowedIn: [],
  },
  {
    name: "the pure core takes no I/O, clock or randomness (src/model, src/wire, src/routing)",
    pattern:
      /\bDeno\.|\bfetch\(|performance\.now|Math\.random|crypto\.(randomUUID|getRandomValues)|from "(hono|node:)/,
    allowedIn: [],
    scope: ["model/", "wire/", "routing/"],
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
  const inScope = (file: string) => rule.scope?.some((path) => file.startsWith(path)) ?? true;
  for (const file of files.filter(inScope)) {
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

Deno.test("layering: each rule finds what it forbids outside its allowed places (the scan reads src/ at all)", async () => {
  for (const rule of RULES) {
    if (rule.allowedIn.length === 0 && rule.scope === undefined) continue;
    // Allowed nowhere and applied everywhere, the rule must find its pattern in its own homes.
    const found = await violations({ ...rule, allowedIn: [], scope: undefined }, files);
    assertEquals(found.length > 0, true, rule.name);
  }
  const clock = RULES.find((r) => r.allowedIn.length === 0 && r.scope === undefined)!;
  assertEquals(clock.pattern.test("const now = Date.now();"), true);
  assertEquals(clock.pattern.test('Deno.env.get("HOME")'), true);
});
