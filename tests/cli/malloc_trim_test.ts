/**
 * The periodic allocator trim `serve` runs (src/cli/malloc_trim.ts): it gives freed heap pages back to the
 * system (malloc_trim_probe.ts, in a fresh process, against a control run without it), and without FFI
 * permission it is simply not started.
 */
import { assert, assertEquals } from "../helpers/assert.ts";

const glibcLinux = Deno.build.os === "linux" && Deno.build.env !== "musl";
const PROBE = new URL("./malloc_trim_probe.ts", import.meta.url).pathname;

interface Probe {
  readonly before: number;
  readonly grown: number;
  readonly freed: number;
  readonly started: boolean;
  readonly fellAfterMs: number | null;
}

async function probe(...args: string[]): Promise<Probe> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--allow-all", PROBE, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(text) as Probe;
}

Deno.test({
  name: "the allocator trim gives freed heap pages back to the system; without it they stay",
  ignore: !glibcLinux,
  async fn() {
    const trimmed = await probe();
    assert(trimmed.started, "a glibc process with FFI permission runs the trim");
    assert(trimmed.grown - trimmed.before > 15, `20 MB of blocks made resident: ${JSON.stringify(trimmed)}`);
    assert(
      trimmed.grown - trimmed.freed < 5,
      `freed blocks below a used one stay resident: ${JSON.stringify(trimmed)}`,
    );
    assert(
      trimmed.fellAfterMs !== null,
      `resident memory fell by 10 MB with the trim: ${JSON.stringify(trimmed)}`,
    );
    const control = await probe("--control");
    assertEquals(control.fellAfterMs, null, `without the trim the pages stay: ${JSON.stringify(control)}`);
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
