import { assert, assertEquals } from "../../helpers/assert.ts";
import { compressToolOutput, MIN_BYTES, MIN_LINES, rtkSaver } from "../../../src/savers/rtk/mod.ts";
import { loadCorpus } from "./corpus.ts";
import { oldLogFold } from "./old_log_fold.ts";
import { lostLines } from "./information.ts";
import { measure, MEASURED_SAVERS } from "./measure_savers.ts";

const corpus = await loadCorpus();

Deno.test("RTK loses no information-bearing line of any corpus transcript", async () => {
  assert(corpus.length >= 18, `corpus has ${corpus.length} entries`);
  for (const entry of corpus) {
    const m = await measure(rtkSaver, entry);
    assertEquals(m.lost, [], `${entry.name}: lines lost`);
    assert(m.tokensAfter <= m.tokensBefore, `${entry.name} grew`);
  }
});

Deno.test("RTK saves tokens on the corpus where the output is redundant, and leaves file reads and diffs whole", async () => {
  const saved = new Map<string, number>();
  for (const entry of corpus) {
    const m = await measure(rtkSaver, entry);
    saved.set(entry.name, m.tokensBefore - m.tokensAfter);
  }
  for (
    const name of ["npm_install_http", "service_log", "tree_src", "find_files", "grep_exports", "ls_usr_bin"]
  ) {
    assert((saved.get(name) ?? 0) > 0, `${name} should shrink`);
  }
  for (const name of ["file_read_cat_n", "file_read_plain", "git_diff", "numbered_400_lines"]) {
    assertEquals(saved.get(name), 0, `${name} must reach the model unchanged`);
  }
});

Deno.test("every RTK elision in the corpus is marked", () => {
  for (const entry of corpus) {
    const out = compressToolOutput(entry.output);
    if (out === null) continue;
    const filled = (text: string) => text.split("\n").filter((line) => line.trim() !== "").length;
    const before = filled(entry.output);
    const after = filled(out);
    const markers = out.split("\n").filter((line) => line.includes("[rtk: ")).length;
    // A compressed output keeps its non-blank lines (restated) or says where the missing ones went.
    assert(
      after >= before || markers > 0 || /\(\d+\): /.test(out) || / \(\d+ matches\):/.test(out),
      entry.name,
    );
  }
});

Deno.test("RTK leaves every short tool result untouched", () => {
  for (const entry of corpus) {
    const lines = entry.output.split("\n");
    for (const size of [5, MIN_LINES - 1]) {
      const short = lines.slice(0, size).join("\n");
      assertEquals(compressToolOutput(short), null, `${entry.name}: first ${size} lines`);
    }
    // A third of the byte limit in characters stays under it even when every character takes 3 bytes.
    const small = entry.output.slice(0, Math.floor((MIN_BYTES - 1) / 3));
    assertEquals(compressToolOutput(small), null, `${entry.name}: a start under ${MIN_BYTES} bytes`);
  }
});

Deno.test("the prompt savers never touch tool results", async () => {
  for (const saver of MEASURED_SAVERS.filter((s) => s.name !== "rtk")) {
    for (const entry of corpus) assertEquals((await measure(saver, entry)).lost, [], saver.name);
  }
});

Deno.test("the information measure notices a dropped line and a dropped word", () => {
  const input = "alpha beta\ngamma delta\n[#########...........] 40%\n";
  assertEquals(lostLines(input, "alpha beta"), ["gamma delta"]);
  assertEquals(lostLines(input, "alpha\ngamma delta"), ["alpha beta"]);
  assertEquals(lostLines(input, "beta alpha delta gamma"), [], "progress bars and regrouped words are fine");
});

Deno.test("the information measure counts values: a dropped status, order id or duration is a lost line", () => {
  const input = "GET /healthz 200 1ms\nGET /healthz 500 1ms\ncharged order_id=731007\nbuild took 2307ms\n";
  assertEquals(lostLines(input, "GET /healthz 200 1ms\ncharged order_id=731007\nbuild took 2307ms"), [
    "GET /healthz 500 1ms",
  ]);
  assertEquals(lostLines(input, "GET /healthz 200 1ms\nGET /healthz 500 1ms\ncharged order_id=731004"), [
    "charged order_id=731007",
    "build took 2307ms",
  ]);
  // A timestamp is when a line was printed, not a value: a repeat that differs only in it is no loss.
  const log = "2026-11-25T10:00:01.000Z INFO ok 200\n2026-11-25T10:00:02.000Z INFO ok 200";
  assertEquals(lostLines(log, "2026-11-25T10:00:01.000Z INFO ok 200"), []);
});

Deno.test("the information measure flags what RTK's old log folding dropped from the pattern-breaking corpus logs", () => {
  const byName = new Map(corpus.map((entry) => [entry.name, entry.output]));
  const http = byName.get("http_server_log") ?? "";
  const httpLost = lostLines(http, oldLogFold(http));
  assert(httpLost.some((line) => line.includes('"GET /healthz HTTP/1.1" 500')), "the one 500 among the 200s");
  assert(httpLost.some((line) => line.includes("order_id=48214 ")), "an order id from the middle of a run");
  const worker = byName.get("order_worker_log") ?? "";
  const workerLost = lostLines(worker, oldLogFold(worker));
  assert(workerLost.some((line) => line.includes("status=500")), "the one status=500 among status=200");
  assert(workerLost.some((line) => line.includes("took=2307ms")), "the one slow call");
  const tests = byName.get("deno_test_params") ?? "";
  assert(lostLines(tests, oldLogFold(tests)).length > 0, "passing tests with their durations");
  // The same outputs through today's RTK lose nothing (the first test checks every entry this way).
  for (const text of [http, worker, tests]) {
    assertEquals(lostLines(text, compressToolOutput(text) ?? text), []);
  }
});

Deno.test("every corpus entry says whether a real tool printed it or a generator wrote it", () => {
  for (const entry of corpus) assert(["captured", "synthetic"].includes(entry.origin), entry.name);
  const synthetic = corpus.filter((entry) => entry.origin === "synthetic").map((entry) => entry.name);
  assertEquals(synthetic, ["numbered_400_lines", "order_worker_log", "service_log"]);
});
