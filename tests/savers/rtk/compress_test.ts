import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { compressToolOutput, detectFilter } from "../../../src/savers/rtk/mod.ts";
import { lostLines } from "../corpus/information.ts";
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
  assertEquals(lostLines(text, out), [], "no information-bearing line may lose a word");
  return out;
}

function filterName(text: string): string | undefined {
  return detectFilter(text.split("\n"))?.name;
}

Deno.test("compressToolOutput() keeps every commit and message line of a 300-commit git log", () => {
  const text = gitLog(300);
  assertEquals(filterName(text), "git_log");
  const out = compress(text);
  assertEquals(out.split("\n").filter((line) => line.startsWith("commit ")).length, 300);
  assertStringIncludes(out, "Change number 299: tweak module");
  assertStringIncludes(out, "Fix panic in parser when input is empty");
  assertStringIncludes(out, "Merge: ");
  assertStringIncludes(out, "… [rtk: 300 Signed-off-by trailers naming the commit's author omitted]");
});

Deno.test("compressToolOutput() drops only npm's fetch and progress chatter from an npm install, marking it", () => {
  const { text, errors, tail } = npmInstallFailure();
  assertEquals(filterName(text), "build_output");
  const out = compress(text);
  assert(out.length < text.length / 10, `expected a large saving, got ${out.length} of ${text.length}`);
  for (const line of [...errors, ...tail]) assertStringIncludes(out, line);
  assert(!out.includes("npm http fetch GET"), "fetch chatter should be gone");
  assert(/… \[rtk: \d+ progress\/download lines omitted\]/.test(out), "the elision is marked");
});

Deno.test("compressToolOutput() counts line-by-line progress inside build output", () => {
  const { text } = npmInstallFailure();
  const progress = Array.from({ length: 50 }, (_, i) => `Downloading chromium ${i * 2}% (${i}/49)`);
  const lines = text.split("\n");
  lines.splice(40, 0, ...progress);
  // Not through compress(): the corpus measure counts every folded step's figures as lost values.
  const out = compressToolOutput(lines.join("\n")) ?? "";
  assertStringIncludes(
    out,
    `${progress[0]}\n… [rtk: 48 progress lines omitted, only the progress figures advanced]\n${progress[49]}`,
  );
});

Deno.test("compressToolOutput() keeps an npm request that failed among the fetch chatter", () => {
  const { text } = npmInstallFailure();
  const failed = "npm http fetch GET 404 https://registry.npmjs.org/left-padd 212ms (cache miss)";
  const lines = text.split("\n");
  lines.splice(60, 0, failed);
  const out = compress(lines.join("\n"));
  assertStringIncludes(out, failed);
});

Deno.test("compressToolOutput() keeps every match of a 5,000-line grep, saying each path once per run", () => {
  const { text, files } = bigGrep();
  assertEquals(filterName(text), "grep_output");
  const out = compress(text);
  for (const file of files) assertStringIncludes(out, `${file} (`);
  for (let i = 0; i < 5000; i += 499) assertStringIncludes(out, `${i + 1}:   const value${i} =`);
});

Deno.test("compressToolOutput() leaves a git diff exactly as it was", () => {
  const text = gitDiff() + "\n" + gitDiff();
  assertEquals(filterName(text), "git_diff");
  assertEquals(compressToolOutput(text), null);
});

Deno.test("compressToolOutput() keeps every path of git status and counts the usage hints", () => {
  const text = gitStatus();
  assertEquals(filterName(text), "git_status");
  const out = compress(text);
  for (const needle of ["On branch main", "src/a.ts", "src/d.ts", "scratch/tmp_119.log"]) {
    assertStringIncludes(out, needle);
  }
  assert(!out.includes('(use "git add <file>...'), "hints are dropped");
  assertStringIncludes(out, "… [rtk: 4 git usage hints");
});

Deno.test("compressToolOutput() lists every name of find output under its directory", () => {
  const { text, dirs } = findOutput();
  assertEquals(filterName(text), "find_output");
  const out = compress(text);
  for (const dir of dirs) assertStringIncludes(out, `${dir}/ (40): component_0.tsx`);
  assertStringIncludes(out, "component_39.tsx");
});

Deno.test("compressToolOutput() turns tree drawing into indentation and keeps every entry", () => {
  const text = treeOutput();
  assertEquals(filterName(text), "tree_output");
  const out = compress(text);
  assertEquals(out.split("\n").length, text.split("\n").length);
  assert(!out.includes("├──"), "box drawing is gone");
  assertStringIncludes(out, "\n  dir_0_0\n    dir_1_0\n");
  assertStringIncludes(out, "1530 directories, 1536 files");
});

Deno.test("compressToolOutput() says a shared ls -l owner once and keeps permissions, sizes and dates", () => {
  const text = lsLong();
  assertEquals(filterName(text), "ls_listing");
  const out = compress(text);
  assertStringIncludes(out, "[rtk: every entry below is owned by alice:staff; link counts omitted]");
  assertStringIncludes(out, "-rw-r--r-- 1000 Mar 1 12:00 report_0.csv");
  assertStringIncludes(out, "drwxr-xr-x 96 Feb 1 2023 archive");
  assertEquals(out.match(/alice/g)?.length, 1);
});

Deno.test("compressToolOutput() folds log lines that repeat apart from the timestamp and keeps every distinct error and value", () => {
  const { text, errors } = repetitiveLog();
  assertEquals(filterName(text), "repetitive_log");
  const out = compress(text);
  assert(out.length < text.length / 5, `expected a large saving, got ${out.length} of ${text.length}`);
  for (const line of errors) assertStringIncludes(out, line);
  for (const latency of [0, 1, 2, 3]) assertStringIncludes(out, `heartbeat ok latency=${latency}ms queue=0`);
  assertStringIncludes(out, "lines that repeat a line above except for the timestamp omitted]");
});

Deno.test("compressToolOutput() never folds log lines that name different things", () => {
  const lines = Array.from(
    { length: 60 },
    (_, i) => `10:00:${String(i).padStart(2, "0")} INFO job worker-${i} ok`,
  );
  assertEquals(compressToolOutput(lines.join("\n")), null);
});

Deno.test("compressToolOutput() never cuts a long file read: the 400-line file keeps its middle", () => {
  const lines = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(6)}\tline ${i + 1}`);
  lines[211] = `   212\tconst secretHandshake = "zebra-quartz-1994";`;
  assertEquals(compressToolOutput(lines.join("\n")), null);
  const prose = Array.from({ length: 1000 }, (_, i) => `line ${i}: the quick brown fox ${i * 7}`);
  assertEquals(compressToolOutput(prose.join("\n")), null);
});

Deno.test("compressToolOutput() folds byte-identical runs in unrecognised output and marks them", () => {
  const lines = Array.from({ length: 40 }, (_, i) => `row ${i} of the table with some padding text`);
  lines.splice(20, 0, ...Array(30).fill("the very same line, again and again"));
  const out = compress(lines.join("\n"));
  assertStringIncludes(
    out,
    "the very same line, again and again\n… [rtk: the line above repeated 29 more times]",
  );
});

Deno.test("compressToolOutput() strips ANSI colour codes and keeps the last redraw of a progress line", () => {
  const esc = String.fromCharCode(27);
  const body = Array.from({ length: 300 }, (_, i) => `${esc}[32mok${esc}[0m test ${i} passed`).join("\n");
  const out = compress(`progress 10%\rprogress 100%\n${body}`);
  assert(!out.includes(esc), "escape codes are removed");
  assert(out.startsWith("progress 100%\n"), "the last redraw is kept");
});

Deno.test("compressToolOutput() leaves short, huge and incompressible outputs alone", () => {
  assertEquals(compressToolOutput("short output"), null);
  assertEquals(compressToolOutput("x".repeat(1023)), null);
  const fewLines = Array.from({ length: 19 }, () => "same line ".repeat(20)).join("\n");
  assertEquals(compressToolOutput(fewLines), null, "under 20 lines is short, whatever its size");
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
