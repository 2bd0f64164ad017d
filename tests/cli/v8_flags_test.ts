/**
 * The heap flags `serve` runs with (src/cli/v8_flags.ts) are the ones every way of starting it passes,
 * and V8 accepts them (a misspelt V8 flag makes the runtime refuse to start).
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("deno task serve and deno task gateway build the server bundle and run it with the serve heap flags", () => {
  const tasks = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).tasks as Record<string, string>;
  for (const name of ["serve", "gateway"]) {
    assertStringIncludes(tasks[name], "deno task build:server && ", `task ${name}`);
    assertStringIncludes(tasks[name], `deno run -A ${V8_FLAGS_ARG} dist/server/main.js`, `task ${name}`);
  }
});

Deno.test("V8 accepts the serve heap flags and applies them", async () => {
  // The heap's size limit counts the young generation at its largest: 8 MB semi-spaces make it smaller
  // than V8's default (16 MB), so the flag took effect rather than only parsed.
  const script = `import v8 from "node:v8"; console.log(v8.getHeapStatistics().heap_size_limit);`;
  const limit = async (flags: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["eval", ...flags, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
    return Number(new TextDecoder().decode(output.stdout));
  };
  const [flagged, plain] = await Promise.all([limit([V8_FLAGS_ARG]), limit([])]);
  assert(flagged > 0 && flagged < plain, `heap limit ${flagged} with the flags, ${plain} without`);
  const misspelt = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--max-semi-space-sise=8", "1"],
    stdout: "null",
    stderr: "null",
  }).output();
  assert(!misspelt.success, "a misspelt V8 flag stops the runtime (so a typo in V8_HEAP_FLAGS fails here)");
});
