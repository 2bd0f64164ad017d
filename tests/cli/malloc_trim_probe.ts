/**
 * Run by malloc_trim_test.ts in a fresh process, whose heap holds nothing freed by earlier tests: 20 MB of
 * small blocks are allocated through libc, touched, and freed except the topmost one (so glibc cannot give
 * the heap back from its top by itself); then the trimmer starts (or, with `--control`, does not). Prints
 * resident memory at each step and how long the fall of 10 MB took (null when it did not come in 3 s).
 */
import { startMallocTrim } from "../../src/cli/malloc_trim.ts";

const rssMb = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(Deno.readTextFileSync("/proc/self/status"))![1]) / 1024;
const libc = Deno.dlopen("libc.so.6", {
  malloc: { parameters: ["usize"], result: "pointer" },
  free: { parameters: ["pointer"], result: "void" },
  memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
});
const BLOCK = 1024n;
const before = rssMb();
const blocks: Deno.PointerValue[] = [];
for (let i = 0; i < 20_000; i++) {
  const block = libc.symbols.malloc(BLOCK);
  libc.symbols.memset(block, 1, BLOCK);
  blocks.push(block);
}
const grown = rssMb();
const top = blocks.pop();
for (const block of blocks) libc.symbols.free(block);
const freed = rssMb();
const trimmer = Deno.args.includes("--control") ? null : startMallocTrim(20);
const start = performance.now();
let fellAfterMs: number | null = null;
while (performance.now() - start < 3_000) {
  if (grown - rssMb() > 10) {
    fellAfterMs = performance.now() - start;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
trimmer?.stop();
libc.symbols.free(top ?? null);
libc.close();
console.log(JSON.stringify({ before, grown, freed, started: trimmer !== null, fellAfterMs }));
