import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { compressToolOutput } from "../../../src/savers/rtk/mod.ts";
import { isTroubleLine } from "../../../src/savers/rtk/error_lines.ts";
import { foldRepeats } from "../../../src/savers/rtk/repetitive_log.ts";
import { isProgressRun } from "../../../src/savers/rtk/progress_lines.ts";
import { looksLikeLog, maskTimestamps } from "../../../src/savers/rtk/volatile.ts";
import { lostLines } from "../corpus/information.ts";

// A small seeded generator, so a failing property names a seed that reproduces it.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)];
}

// A log an agent might tail: health checks whose status and latency come from small sets (so repeats
// happen), order lines with ids that sometimes repeat, heartbeats, retries, and now and then an error.
function randomLog(seed: number): string {
  const next = random(seed);
  const lines: string[] = [];
  const count = 40 + Math.floor(next() * 300);
  let kind = "health";
  for (let i = 0; i < count; i++) {
    if (next() < 0.1) kind = pick(next, ["health", "order", "beat", "retry", "error"]);
    const ts = `2026-11-25T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
      String(i % 60).padStart(2, "0")
    }.${String(Math.floor(next() * 1000)).padStart(3, "0")}Z`;
    switch (kind) {
      case "health":
        lines.push(`${ts} INFO  http GET /healthz ${next() < 0.03 ? 500 : 200} ${Math.floor(next() * 3)}ms`);
        break;
      case "order":
        lines.push(`${ts} INFO  worker order_id=${48200 + Math.floor(next() * 40)} status=shipped`);
        break;
      case "beat":
        lines.push(`${ts} DEBUG worker heartbeat queue_depth=0`);
        break;
      case "retry":
        lines.push(`${ts} WARN  pool retrying connect (attempt ${1 + Math.floor(next() * 6)}/6)`);
        break;
      case "error":
        lines.push(`${ts} ERROR pool connect ECONNREFUSED 10.0.3.${Math.floor(next() * 4)}:443`);
        break;
    }
    if (next() < 0.02) lines.push("");
  }
  return lines.join("\n");
}

const MARKER = /^… \[rtk: (\d+) /;
const REPEATED = /^… \[rtk: the line above repeated (\d+) more times\]$/;

// Checks that the output is the input with marked elisions only: its non-marker lines are input lines
// in their order, the markers' counts add up to exactly the lines that are gone, and every dropped line
// repeats (timestamp aside) a line the output still shows.
function assertOnlyMarkedElisions(input: readonly string[], output: readonly string[], label: string): void {
  let at = 0;
  let counted = 0;
  const kept = new Set<string>();
  const dropped: string[] = [];
  for (const line of output) {
    const marker = MARKER.exec(line) ?? REPEATED.exec(line);
    if (marker) {
      counted += Number(marker[1]);
      continue;
    }
    while (at < input.length && input[at] !== line) dropped.push(input[at++]);
    assert(at < input.length, `${label}: output line not found in order: ${line}`);
    kept.add(maskTimestamps(input[at++]));
  }
  dropped.push(...input.slice(at));
  assertEquals(counted, dropped.length, `${label}: markers count every dropped line`);
  for (const line of dropped) assert(kept.has(maskTimestamps(line)), `${label}: dropped a line: ${line}`);
}

Deno.test("foldRepeats() on random logs: only marked repeats go, every distinct line stays, folding twice changes nothing", () => {
  let folded = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const input = randomLog(seed).split("\n");
    const once = foldRepeats(input, true);
    folded += input.length - once.length;
    assertOnlyMarkedElisions(input, once, `seed ${seed}`);
    const counts = new Map<string, number>();
    for (const line of input) counts.set(maskTimestamps(line), (counts.get(maskTimestamps(line)) ?? 0) + 1);
    for (const line of input) {
      if (counts.get(maskTimestamps(line)) === 1) assert(once.includes(line), `seed ${seed}: unique ${line}`);
    }
    // Trouble (errors, warnings, 4xx/5xx) keeps every recurrence that does not repeat the line before it.
    input.forEach((line, i) => {
      if (!isTroubleLine(line) || (i > 0 && maskTimestamps(input[i - 1]) === maskTimestamps(line))) return;
      assert(once.includes(line), `seed ${seed}: trouble recurrence dropped: ${line}`);
    });
    assertEquals(foldRepeats(once, true), once, `seed ${seed}: idempotent`);
    assertEquals(lostLines(input.join("\n"), once.join("\n")), [], `seed ${seed}: information lost`);
  }
  assert(folded > 10_000, `the random logs must exercise folding (${folded} lines folded)`);
});

Deno.test("compressToolOutput() on random logs loses no word or value, and a second pass finds nothing to shorten", () => {
  for (let seed = 1000; seed < 1100; seed++) {
    const input = randomLog(seed);
    const out = compressToolOutput(input);
    if (out === null) continue;
    assertEquals(lostLines(input, out), [], `seed ${seed}`);
    assertEquals(compressToolOutput(out), null, `seed ${seed}: idempotent`);
  }
});

Deno.test("foldRepeats() outside a log folds only byte-identical runs, even when lines differ only in a timestamp", () => {
  // Test fixtures in a source file: the timestamps are data, so nothing folds.
  const source = Array.from(
    { length: 30 },
    (_, i) => `  "2024-05-01T10:00:${String(i).padStart(2, "0")}Z ok",`,
  );
  assertEquals(foldRepeats(source, false), source);
  const identical = ["a", ...Array(10).fill("same line"), "b"];
  assertEquals(foldRepeats(identical, false), [
    "a",
    "same line",
    "… [rtk: the line above repeated 9 more times]",
    "b",
  ]);
  for (let seed = 1; seed <= 100; seed++) {
    const input = randomLog(seed).split("\n").map((line) => line.slice(25));
    const once = foldRepeats(input, false);
    assertOnlyMarkedElisions(input, once, `seed ${seed}`);
    assertEquals(foldRepeats(once, false), once, `seed ${seed}: idempotent`);
  }
});

Deno.test("compressToolOutput() keeps the one status=500 among 200 status=200 lines of a log", () => {
  const lines = Array.from(
    { length: 200 },
    (_, i) =>
      `2026-11-25T10:00:${String(i % 60).padStart(2, "0")}.000Z INFO  http POST /v1/charges status=200`,
  );
  lines[117] = lines[117].replace("status=200", "status=500");
  const out = compressToolOutput(lines.join("\n"));
  assert(out !== null && out.length < lines.join("\n").length / 4, "the repeats still fold");
  assertStringIncludes(out, lines[117]);
  assertEquals(lostLines(lines.join("\n"), out), []);
});

Deno.test("compressToolOutput() keeps every separate recurrence of a 500, but folds a burst of the same one", () => {
  const lines = Array.from(
    { length: 3000 },
    (_, i) =>
      `2026-11-25T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      }Z INFO  GET /healthz ${i % 97 === 5 ? 500 : 200} ${i % 2}ms`,
  );
  const burst = Array.from(
    { length: 40 },
    (_, i) => `2026-11-25T11:00:${String(i).padStart(2, "0")}Z INFO  GET /healthz 503 0ms`,
  );
  lines.splice(1500, 0, ...burst);
  const out = compressToolOutput(lines.join("\n"));
  assert(out !== null);
  const recurrences = lines.filter((line) => line.includes(" 500 "));
  assertEquals(
    out.split("\n").filter((line) => line.includes(" 500 ")),
    recurrences,
    "every 500 with its time",
  );
  // A burst of the same 503 is one event: its first line stays, the rest join the next marker's count.
  assertEquals(out.split("\n").filter((line) => line.includes(" 503 ")), [burst[0]]);
  assertStringIncludes(out, `${burst[0]}\n… [rtk: `);
});

Deno.test("compressToolOutput() keeps every line of a log whose order ids change, and every differing duration", () => {
  const ids = Array.from(
    { length: 120 },
    (_, i) =>
      `2026-11-25T10:01:${String(i % 60).padStart(2, "0")}Z INFO  worker charged order_id=${731004 + i * 3}`,
  );
  assertEquals(compressToolOutput(ids.join("\n")), null, "nothing in it is redundant");
  const durations = Array.from(
    { length: 120 },
    (_, i) =>
      `2026-11-25T10:02:${String(i % 60).padStart(2, "0")}Z INFO  GET /healthz 200 took=${
        i === 77 ? 2307 : i % 2
      }ms`,
  );
  const out = compressToolOutput(durations.join("\n"));
  assert(out !== null);
  assertStringIncludes(out, "took=2307ms");
  assertStringIncludes(out, "took=0ms");
  assertStringIncludes(out, "took=1ms");
});

Deno.test("compressToolOutput() keeps a failing and a slow test among passing parametrised tests", () => {
  const lines = ["running 80 tests from ./codec_test.ts"];
  for (let i = 1; i <= 80; i++) {
    const outcome = i === 37 ? "FAILED (1ms)" : i === 52 ? "ok (1s)" : `ok (${i % 3}ms)`;
    lines.push(`decodes order payload #${i} ... ${outcome}`);
  }
  lines.push("FAILED | 79 passed | 1 failed (1s)");
  // Every test has its own number, so there is nothing to fold: the output reaches the model whole.
  assertEquals(compressToolOutput(lines.join("\n")), null);
  // The same run with every test logging an INFO line is a log; still nothing distinct may go.
  const logged = lines.flatMap((line, i) => [`2026-11-25T10:00:00Z INFO  case ${i} ready`, line]);
  const out = compressToolOutput(logged.join("\n"));
  for (const needle of ["#37 ... FAILED (1ms)", "#52 ... ok (1s)", "#80 ... ok (2ms)"]) {
    assert(out === null || out.includes(needle), needle);
  }
});

Deno.test("compressToolOutput() folds progress lines where only the percentage and counters advance", () => {
  const progress = Array.from(
    { length: 101 },
    (_, i) => `Receiving objects: ${String(i).padStart(3)}% (${i * 42}/4200), ${(i * 0.12).toFixed(2)} MiB`,
  );
  const text = ["Cloning into 'gateway'...", ...progress, "Resolving deltas: done."].join("\n");
  const out = compressToolOutput(text);
  assertEquals(out?.split("\n"), [
    "Cloning into 'gateway'...",
    progress[0],
    "… [rtk: 99 progress lines omitted, only the progress figures advanced]",
    progress[100],
    "Resolving deltas: done.",
  ]);
});

Deno.test("isProgressRun() is false when anything but progress figures changes, or a figure goes back", () => {
  const pytest = Array.from(
    { length: 30 },
    (_, i) => `tests/test_codec.py::test_parse[${i}] PASSED [ ${i * 3}%]`,
  );
  assertEquals(isProgressRun(pytest), false, "each line names its own test case");
  const retries = Array.from({ length: 6 }, (_, i) => `retrying connect (attempt ${i + 1}/6)`);
  assertEquals(isProgressRun(retries), false, "no percentage: these are events, not progress");
  assertEquals(isProgressRun(["step 10%", "step 30%", "step 20%"]), false, "went back");
  assertEquals(isProgressRun(["build 10% error", "build 20% error", "build 30% error"]), false, "errors");
  assertEquals(
    isProgressRun(["Downloading 10% of 3 files", "Downloading 20% of 3 files", "Downloading 30% of 4 files"]),
    false,
  );
  assertEquals(
    isProgressRun(["Downloading 10% (1/9)", "Downloading 20% (2/9)", "Downloading 30% (3/9)"]),
    true,
  );
});

Deno.test("looksLikeLog() needs most lines stamped: a source file with a few timestamps or levels is not a log", () => {
  const source = Array.from({ length: 60 }, (_, i) => `const x${i} = ${i};`);
  source[3] = `log.info("2024-05-01T10:00:00Z INFO started");`;
  source[9] = `if (level === "ERROR") return;`;
  assertEquals(looksLikeLog(source), false);
  const log = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? "  at frame" : `10:00:${i % 60} INFO ok`));
  assertEquals(looksLikeLog(log), true);
  const access = ['127.0.0.1 - - [27/Nov/2026 04:39:31] "GET /healthz HTTP/1.1" 200 -'];
  assertEquals(maskTimestamps(access[0]), '127.0.0.1 - - [<ts>] "GET /healthz HTTP/1.1" 200 -');
});
