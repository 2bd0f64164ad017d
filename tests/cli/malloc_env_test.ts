/**
 * The allocator setting `serve` runs with (src/cli/malloc_env.ts) is in every way of starting it that the
 * project ships: the deno tasks, the systemd unit and the container image; an operator's own value wins.
 * (`serve --workers` passing it to each worker is checked in serve_workers_test.ts.)
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { MALLOC_ENV, mallocEnv } from "../../src/cli/malloc_env.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

Deno.test("deno task serve and deno task gateway start the runtime with the allocator setting", () => {
  const tasks = JSON.parse(read("deno.json")).tasks as Record<string, string>;
  for (const name of ["serve", "gateway"]) {
    for (const [variable, value] of Object.entries(MALLOC_ENV)) {
      assertStringIncludes(tasks[name], `${variable}=${value} deno run`, `task ${name}`);
    }
  }
});

Deno.test("the systemd unit and the container image set the allocator setting", () => {
  for (const [variable, value] of Object.entries(MALLOC_ENV)) {
    assertStringIncludes(read("deploy/gateway.service"), `\nEnvironment=${variable}=${value}\n`);
    assertStringIncludes(read("deploy/Containerfile"), `\nENV ${variable}=${value}\n`);
  }
});

Deno.test("mallocEnv() adds the setting only where the operator has not set it", () => {
  assertEquals(mallocEnv(() => undefined), { MALLOC_ARENA_MAX: "2" });
  assertEquals(mallocEnv((name) => name === "MALLOC_ARENA_MAX" ? "4" : undefined), {});
});
