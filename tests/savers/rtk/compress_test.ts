import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { compressToolOutput, detectFilter } from "../../../src/savers/rtk/mod.ts";
import {
  bigGrep,
  findOutput,
  gitDiff,
  gitLog,
  gitStatus,
  lsLong,
  npmInstallFailure,
  repetitiveLog,
  treeOutput,
} from "./fixtures.ts";

function compress(text: string): string {
  const out = compressToolOutput(text);
  assert(out !== null, "expected the output to be compressed");
  assert(out.length < text.length, "expected the output to shrink");
  return out;
}

function filterName(text: string): string | undefined {
  return detectFilter(text.split("\n"))?.name;
}

Deno.test("compressToolOutput() keeps 20 detailed commits of a 300-commit git log, lists up to 100 and counts the rest", () => {
  const text = gitLog(300);
  assertEquals(filterName(text), "git_log");
  const out = compress(text);
  assert(out.length < text.length / 4, `expected a large saving, got ${out.length} of ${text.length}`);
  const lines = out.split("\n");
  assertEquals(lines.filter((line) => line.startsWith("commit ")).length, 20);
  assertStringIncludes(out, "Change number 99: tweak module");
  assert(!out.includes("Change number 150:"), "commit 150 should only be counted");
  assertStringIncludes(out, "Fix panic in parser when input is empty");
  assertStringIncludes(out, "more commits)");
  assert(!out.includes("Merge: "), "merge parent lines are noise");
  assert(!out.includes("Signed-off-by"), "trailers are noise");
});

Deno.test("compressToolOutput() keeps every error and warning and the last 20 lines of a noisy npm install", () => {
  const { text, errors, tail } = npmInstallFailure();
  assertEquals(filterName(text), "build_output");
  const out = compress(text);
  assert(out.length < text.length / 10, `expected a large saving, got ${out.length} of ${text.length}`);
  for (const line of errors) assertStringIncludes(out, line);
  const outLines = out.split("\n");
  assertEquals(outLines.slice(-tail.length), tail);
  assert(!out.includes("npm http fetch GET"), "fetch noise should be gone");
});

Deno.test("compressToolOutput() keeps every file path of a 5,000-line grep and caps matches per file", () => {
  const { text, files } = bigGrep();
  assertEquals(filterName(text), "grep_output");
  const out = compress(text);
  for (const file of files) assertStringIncludes(out, `${file} (`);
  assertStringIncludes(out, "more matches in src/module_0/file_0.ts)");
  assert(out.split("\n").length < 1000);
});

Deno.test("compressToolOutput() never drops a grep match that looks like an error", () => {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) lines.push(`src/app.ts:${i + 1}:  log("step ${i} finished")`);
  lines.push('src/app.ts:99:  throw new TypeError("bad input")');
  const out = compress(lines.join("\n"));
  assertStringIncludes(out, 'throw new TypeError("bad input")');
});

Deno.test("compressToolOutput() keeps git diff headers and changed lines and drops index lines", () => {
  const text = gitDiff();
  assertEquals(filterName(text), "git_diff");
  const out = compress(text);
  assert(!out.includes("\nindex "), "index lines are dropped");
  for (
    const needle of [
      "diff --git a/src/f0.ts",
      "+++ b/src/f1.ts",
      "@@ -1,40 +1,41 @@",
      "-  const old = 1;",
      '+  throw new Error("boom 0");',
    ]
  ) {
    assertStringIncludes(out, needle);
  }
  assertStringIncludes(out, "unchanged lines)");
});

Deno.test("compressToolOutput() groups git status by state and counts long untracked lists", () => {
  const text = gitStatus();
  assertEquals(filterName(text), "git_status");
  const out = compress(text);
  for (
    const needle of [
      "On branch main",
      "src/a.ts",
      "src/b.ts",
      "src/c.ts",
      "src/d.ts",
      "untracked (120):",
      "… (+100 more)",
    ]
  ) {
    assertStringIncludes(out, needle);
  }
  assert(!out.includes('(use "git add <file>...'), "hints are dropped");
});

Deno.test("compressToolOutput() groups find output by directory and keeps every directory", () => {
  const { text, dirs } = findOutput();
  assertEquals(filterName(text), "find_output");
  const out = compress(text);
  for (const dir of dirs) assertStringIncludes(out, `${dir}/ (40): component_0.tsx`);
  assertStringIncludes(out, "(+30 more)");
});

Deno.test("compressToolOutput() collapses the deep levels of a long tree", () => {
  const text = treeOutput();
  assertEquals(filterName(text), "tree_output");
  const out = compress(text);
  assert(out.split("\n").length <= 210, `got ${out.split("\n").length} lines`);
  assertStringIncludes(out, "deeper entries)");
  assertStringIncludes(out, "├── dir_0_0");
  assertStringIncludes(out, "1530 directories, 1536 files");
});

Deno.test("compressToolOutput() reduces ls -l rows to names and sizes", () => {
  const text = lsLong();
  assertEquals(filterName(text), "ls_listing");
  const out = compress(text);
  assertStringIncludes(out, "report_0.csv  1000");
  assertStringIncludes(out, "archive/");
  assert(!out.includes("rw-r--r--"), "permissions are dropped");
  assert(!out.includes("alice"), "owners are dropped");
});

Deno.test("compressToolOutput() folds near-identical log lines and keeps every distinct error", () => {
  const { text, errors } = repetitiveLog();
  assertEquals(filterName(text), "repetitive_log");
  const out = compress(text);
  assert(out.length < text.length / 5, `expected a large saving, got ${out.length} of ${text.length}`);
  for (const line of errors) assertStringIncludes(out, line);
  assertStringIncludes(out, "… 98 similar lines (only numbers or timestamps differ)");
});

Deno.test("compressToolOutput() truncates unknown long output to head and tail but keeps error lines", () => {
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) {
    lines.push(`line ${i}: the quick brown fox jumps over the lazy dog ${i * 7}`);
  }
  lines[300] =
    lines[301] =
    lines[302] =
    lines[303] =
      "exact duplicate in the middle";
  lines[500] = "Traceback (most recent call last): something went wrong";
  const text = lines.join("\n");
  assertEquals(filterName(text), undefined);
  const out = compress(text).split("\n");
  assertEquals(out.slice(0, 120), lines.slice(0, 120));
  assertEquals(out.slice(-60), lines.slice(-60));
  assert(out.includes(lines[500]));
  assert(out.includes("… (380 lines omitted)"));
});

Deno.test("compressToolOutput() strips ANSI colour codes and keeps the last redraw of a progress line", () => {
  const esc = String.fromCharCode(27);
  const body = Array.from({ length: 300 }, (_, i) => `${esc}[32mok${esc}[0m test ${i} passed`).join("\n");
  const out = compress(`progress 10%\rprogress 100%\n${body}`);
  assert(!out.includes(esc), "escape codes are removed");
  assert(out.startsWith("progress 100%\n"), "the last redraw is kept");
});

Deno.test("compressToolOutput() leaves small, huge and incompressible outputs alone", () => {
  assertEquals(compressToolOutput("short output"), null);
  assertEquals(compressToolOutput("x".repeat(499)), null);
  assertEquals(compressToolOutput("y\n".repeat(5.5 * 1024 * 1024)), null);
  const prose = Array.from(
    { length: 40 },
    (_, i) => `Sentence ${i} says something different about item ${i * 3}.`,
  );
  assertEquals(compressToolOutput(prose.join(" ")), null);
});

Deno.test("compressToolOutput() compresses long strings inside JSON and keeps the JSON valid", () => {
  const { text } = npmInstallFailure();
  const json = JSON.stringify({ output: text, exitCode: 1 });
  const out = compressToolOutput(json);
  assert(out !== null);
  const parsed = JSON.parse(out) as { output: string; exitCode: number };
  assertEquals(parsed.exitCode, 1);
  assertStringIncludes(parsed.output, "npm ERR! code ERESOLVE");
  assert(parsed.output.length < text.length);
  const pretty = JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => ({ id: i })) }, null, 2);
  assertEquals(compressToolOutput(pretty), null, "JSON without long strings is never cut");
});
