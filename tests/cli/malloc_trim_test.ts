/**
 * The periodic allocator trim `serve` runs (src/cli/malloc_trim.ts) gives free heap pages back: 20 MB of
 * small blocks are allocated through libc and freed except the topmost one (so glibc cannot give the heap
 * back from its top by itself), and resident memory must fall once the trimmer has run.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { startMallocTrim } from "../../src/cli/malloc_trim.ts";
import { waitFor } from "../helpers/wait.ts";

const glibcLinux = Deno.build.os === "linux" && Deno.build.env !== "musl";

function rssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

Deno.test({
  name: "the allocator trim gives freed heap pages back to the system",
  ignore: !glibcLinux,
  async fn() {
    const libc = Deno.dlopen("libc.so.6", {
      malloc: { parameters: ["usize"], result: "pointer" },
      free: { parameters: ["pointer"], result: "void" },
      memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
    });
    const BLOCK = 1024n;
    const blocks: Deno.PointerValue[] = [];
    let trimmer: ReturnType<typeof startMallocTrim> = null;
    try {
      const before = rssMb();
      for (let i = 0; i < 20_000; i++) {
        const block = libc.symbols.malloc(BLOCK);
        // Touched, so the pages are resident.
        libc.symbols.memset(block, 1, BLOCK);
        blocks.push(block);
      }
      const grown = rssMb();
      assert(
        grown - before > 15,
        `20 MB of blocks made resident (${before.toFixed(1)} → ${grown.toFixed(1)} MB)`,
      );
      const top = blocks.pop();
      for (const block of blocks) libc.symbols.free(block);
      blocks.length = 0;
      if (top !== undefined) blocks.push(top);
      assert(grown - rssMb() < 5, "freed blocks below a used one stay resident without a trim");
      trimmer = startMallocTrim(20);
      assert(trimmer !== null, "a glibc process with FFI permission runs the trim");
      // The trim runs every 20 ms; left alone, glibc gave these pages back only after about 20 s in a
      // control run, so the deadline tells the two apart with a wide margin either way.
      await waitFor(() => grown - rssMb() > 10, {
        what: "resident memory to fall by 10 MB after the trim",
        timeoutMs: 3_000,
      });
    } finally {
      trimmer?.stop();
      for (const block of blocks) libc.symbols.free(block);
      libc.close();
    }
  },
});

Deno.test("without FFI permission the trimmer is not started, and serving goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gateway-trim-" });
  try {
    const module = new URL("../../src/cli/malloc_trim.ts", import.meta.url).href;
    const script = `${dir}/probe.ts`;
    await Deno.writeTextFile(
      script,
      `import { startMallocTrim } from ${JSON.stringify(module)};\n` +
        `console.log(startMallocTrim() === null ? "not started" : "started");\n`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--allow-read", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(new TextDecoder().decode(output.stdout).trim(), "not started");
    assertEquals(output.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
