/**
 * The release build, checked without compiling (`deno compile` downloads its runtime, which this machine
 * cannot): the workflow, the container build and `deno task compile` all go through scripts/release.ts;
 * its dry run compiles the server bundle (built from main.ts) for the four platforms with `--include`s that
 * cover every file the gateway reads at runtime; and nothing in src/ loads code the compiler cannot see.
 */
import { parse } from "yaml";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ENTRY, INCLUDES, missingInputs, plan, TARGETS } from "../../scripts/release.ts";
import { V8_FLAGS_ARG } from "../../src/cli/v8_flags.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

function* sourceFiles(dir: URL): Generator<URL> {
  for (const entry of Deno.readDirSync(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (entry.name.endsWith(".ts")) yield url;
  }
}

Deno.test("release dry run: the server bundle for Linux x64/arm64 and macOS x64/arm64 with migrations, ui/dist and worker entry points embedded", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/release.ts", "--dry-run", "--target", "all", "--out-dir", "dist"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  // The bundle must be built first (deno task build:ui, as the workflow does).
  assertEquals(missingInputs(ROOT), [], "run `deno task build:ui` before this test");
  assertEquals(output.code, 0, stderr);
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
  assertEquals(lines.length, 4);
  const triples = new Set<string>();
  for (const line of lines) {
    const args = line.split(" ");
    assertEquals(args.slice(0, 5), ["deno", "compile", "-A", "--unstable-net", V8_FLAGS_ARG]);
    assertEquals(args.at(-1), "dist/server/main.js", "the entry point (the server bundle) comes last");
    const includes = args.flatMap((a, i) => (args[i - 1] === "--include" ? [a] : []));
    assertEquals(includes.sort(), [...INCLUDES].sort());
    for (const folder of ["migrations/", "ui/dist/"]) assert(includes.includes(folder), `${folder} embedded`);
    triples.add(args[args.indexOf("--target") + 1]);
  }
  assertEquals([...triples].sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-unknown-linux-gnu",
  ]);
  assertEquals(plan(undefined, "dist")[0].args.at(-1), ENTRY);
  assertEquals(Object.keys(TARGETS).length, 4);
});

Deno.test("release dry run: every file or folder src/ loads through import.meta.url (worker entry points too) is included, and every dynamic import is visible to the compiler", () => {
  const readAtRuntime = new Set<string>();
  const opaqueImports: string[] = [];
  for (const file of sourceFiles(new URL("src/", ROOT))) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(/new URL\(\s*"([^"]+)"\s*,\s*import\.meta\.url\s*\)/g)) {
      const resolved = new URL(m[1], file).href.slice(ROOT.href.length);
      readAtRuntime.add(resolved);
    }
    for (const m of text.matchAll(/\bimport\(\s*([^)]*)\)/g)) {
      // A string literal is bundled by deno compile; anything else must be a known source-checkout path.
      if (!/^"[^"]+"$/.test(m[1].trim())) {
        opaqueImports.push(`${file.pathname.slice(ROOT.pathname.length)}: ${m[1]}`);
      }
    }
  }
  assert(readAtRuntime.size >= 2, `found ${[...readAtRuntime]}`);
  for (const path of readAtRuntime) {
    assert(
      INCLUDES.some((include) => path.startsWith(include)),
      `src/ reads ${path} at runtime but scripts/release.ts does not --include it`,
    );
  }
  // The UI source builder imports scripts/build_ui.ts by a computed URL on purpose: only a source checkout
  // (which has ui/src) reaches it; a compiled binary serves the embedded bundle.
  assertEquals(opaqueImports, ["src/http/ui_assets.ts: script"]);
  assert(read("src/http/ui_assets.ts").includes("hasUiSources(uiRoot)"), "the computed import is guarded");
});

Deno.test("release: the workflow, the container build and deno task compile all use scripts/release.ts", () => {
  const workflow = parse(read(".github/workflows/release.yml")) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, string> }[] }>;
  };
  assert("push" in workflow.on, "runs on tag pushes");
  const steps = workflow.jobs.build.steps;
  const runs = steps.map((s) => s.run ?? "");
  const uiAt = runs.findIndex((r) => r.includes("deno task build:ui"));
  const compileAt = runs.findIndex((r) => r.includes("scripts/release.ts --target all"));
  assert(uiAt >= 0 && compileAt > uiAt, "the UI is built before compiling");
  assert(!runs.some((r) => /deno compile/.test(r)), "no compile command bypasses scripts/release.ts");
  const setup = steps.find((s) => s.uses?.startsWith("denoland/setup-deno"));
  // The runtime the binaries embed is the Deno 2 line the project is tested on.
  assert(/^v2\.\d+\.\d+$/.test(setup?.with?.["deno-version"] ?? ""), "a pinned Deno 2 version");
  const containerfile = read("deploy/Containerfile");
  assert(containerfile.includes("deno task build:ui") && containerfile.includes("scripts/release.ts"));
  for (const include of INCLUDES) {
    assert(containerfile.includes(`COPY ${include.split("/")[0]}/`), `the container build copies ${include}`);
  }
  const tasks = (JSON.parse(read("deno.json")) as { tasks: Record<string, string> }).tasks;
  assert(tasks.compile.includes("build:ui") && tasks.compile.includes("scripts/release.ts"));
});
