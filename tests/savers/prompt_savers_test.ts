import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { buildSavers, cavemanInstruction, ponytailInstruction, runSavers } from "../../src/savers/mod.ts";
import type { NeutralRequest } from "../../src/model/mod.ts";
import { request, text } from "./request_fixture.ts";

const fetchStub: typeof fetch = () => Promise.reject(new Error("unused"));

function savers(caveman: boolean, ponytail: boolean) {
  return buildSavers({
    rtk: false,
    caveman: { enabled: caveman, level: "full" },
    ponytail: { enabled: ponytail, level: "full" },
    headroom: { enabled: false, url: "" },
  }, { fetch: fetchStub });
}

async function run(input: NeutralRequest, caveman = true, ponytail = false): Promise<NeutralRequest> {
  return await runSavers(input, savers(caveman, ponytail), {}, () => {});
}

Deno.test("Caveman appends its instruction after existing system text when there are no cache breakpoints", async () => {
  const out = await run(request([text("You are helpful."), text("Project rules.")]));
  assertEquals(out.system.map((p) => p.text), [
    "You are helpful.",
    "Project rules.",
    cavemanInstruction("full"),
  ]);
  assertEquals(out.system[2].cacheControl, undefined);
});

Deno.test("Caveman goes right after the last cache breakpoint so the cached prefix is untouched", async () => {
  const input = request([text("static", true), text("cached tail", true), text("dynamic per request")]);
  const out = await run(input);
  assertEquals(out.system.map((p) => p.text), [
    "static",
    "cached tail",
    cavemanInstruction("full"),
    "dynamic per request",
  ]);
  assertEquals(out.system.slice(0, 2), input.system.slice(0, 2));
  assertEquals(out.system[2].cacheControl, undefined);
});

Deno.test("Caveman and Ponytail together keep their order behind a breakpoint", async () => {
  const out = await run(request([text("cached", true), text("tail")]), true, true);
  assertEquals(out.system.map((p) => p.text), [
    "cached",
    cavemanInstruction("full"),
    ponytailInstruction("full"),
    "tail",
  ]);
});

Deno.test("prompt savers are idempotent: a request that already carries the instruction is unchanged", async () => {
  const once = await run(request([text("base", true)]), true, true);
  const twice = await run(once, true, true);
  assert(twice === once, "the same request object comes back");
});

Deno.test("Caveman and Ponytail work on a request with no system text", async () => {
  const out = await run(request(), true, true);
  assertEquals(out.system.map((p) => p.text), [cavemanInstruction("full"), ponytailInstruction("full")]);
});

Deno.test("every prompt saver level carries the safety rules, and levels differ", () => {
  for (const make of [cavemanInstruction, ponytailInstruction]) {
    const levels = (["lite", "full", "ultra"] as const).map(make);
    assertEquals(new Set(levels).size, 3);
    for (const instruction of levels) {
      assertStringIncludes(instruction, "security warnings");
      assertStringIncludes(instruction, "irreversible");
      assertStringIncludes(instruction, "multi-step instructions");
      assertStringIncludes(instruction, "code, file paths, commands, error messages or URLs");
    }
  }
});
