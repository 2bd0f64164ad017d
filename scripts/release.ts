/**
 * Builds the release binaries with `deno compile`: one self-contained executable per target, the dashboard
 * bundle (`ui/dist/`) and the SQL migrations embedded. The one place that knows the entry point and the
 * `--include`s: `deno task compile`, the container build and the release workflow all run this script,
 * and tests/release checks its dry run against every file the gateway reads at runtime. The entry point is
 * the server bundle this script builds first (scripts/build_server.ts), as `deno task serve` runs it.
 *
 *   deno run -A scripts/release.ts [--target <name>|all] [--out-dir dist] [--output <file>] [--dry-run]
 *
 * Run `deno task build:ui` first (the workflow does). --dry-run builds the server bundle, prints the commands
 * and checks that what they include exists, without compiling (`deno compile` downloads its runtime, which
 * some machines cannot).
 */
import { parseArgs } from "node:util";
import { V8_FLAGS_ARG } from "../src/cli/v8_flags.ts";
import { buildServer, SERVER_BUNDLE } from "./build_server.ts";

/** The program's entry point: the server bundle, built from main.ts. */
export const ENTRY = SERVER_BUNDLE;

/** What the binary reads or starts at runtime (through `new URL(…, import.meta.url)`), relative to the repository. */
export const INCLUDES = [
  "migrations/",
  "ui/dist/",
  "src/storage/postgres/bridge_worker.ts",
  "src/gateway/token_count_worker.ts",
  "src/http/json_parse_worker.ts",
  "src/gateway/long_text_redact_worker.ts",
] as const;

/** Files that must exist inside the includes for the binary to work. */
export const REQUIRED_FILES = [
  "migrations/0001_init.sql",
  "migrations/postgres/0001_schema.sql",
  "ui/dist/index.html",
  "ui/dist/app.js",
] as const;

/** Release targets: archive name suffix → Rust target triple `deno compile --target` takes. */
export const TARGETS: Readonly<Record<string, string>> = {
  "linux-x64": "x86_64-unknown-linux-gnu",
  "linux-arm64": "aarch64-unknown-linux-gnu",
  "macos-x64": "x86_64-apple-darwin",
  "macos-arm64": "aarch64-apple-darwin",
};

/** The `deno` arguments that compile for `triple` (the host when undefined) into `output`. */
export function compileArgs(triple: string | undefined, output: string): string[] {
  // --unstable-net: `serve --workers` listens with SO_REUSEPORT. Worker modules (the PostgreSQL bridge,
  // the token counter, the JSON parser) are started by URL, so they are included by path. The heap flags are baked in.
  const args = ["compile", "-A", "--unstable-net", V8_FLAGS_ARG];
  for (const include of INCLUDES) args.push("--include", include);
  if (triple !== undefined) args.push("--target", triple);
  args.push("--output", output, ENTRY);
  return args;
}

/** Each build: its output file and its `deno` arguments. */
export function plan(
  target: string | undefined,
  outDir: string,
  output?: string,
): { output: string; args: string[] }[] {
  if (target === undefined) {
    const file = output ?? `${outDir}/gateway`;
    return [{ output: file, args: compileArgs(undefined, file) }];
  }
  const names = target === "all" ? Object.keys(TARGETS) : [target];
  return names.map((name) => {
    const triple = TARGETS[name];
    if (triple === undefined) {
      throw new Error(`unknown target "${name}" (one of ${Object.keys(TARGETS).join(", ")}, or all)`);
    }
    const file = `${outDir}/gateway-${name}`;
    return { output: file, args: compileArgs(triple, file) };
  });
}

/** What is missing for a build from `root` (empty when everything the binary needs is there). */
export function missingInputs(root: URL): string[] {
  const missing: string[] = [];
  for (const path of [ENTRY, ...INCLUDES, ...REQUIRED_FILES]) {
    try {
      Deno.statSync(new URL(path, root));
    } catch {
      missing.push(path);
    }
  }
  return missing;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      target: { type: "string" },
      "out-dir": { type: "string", default: "dist" },
      output: { type: "string" },
      "dry-run": { type: "boolean", default: false },
    },
    strict: true,
  });
  const root = new URL("../", import.meta.url);
  await buildServer(root, new URL(ENTRY, root).pathname);
  const missing = missingInputs(root);
  if (missing.length > 0) {
    console.error(`release: missing ${missing.join(", ")} (run \`deno task build:ui\` first)`);
    return 1;
  }
  for (const build of plan(values.target, values["out-dir"]!, values.output)) {
    console.log(`deno ${build.args.join(" ")}`);
    if (values["dry-run"]) continue;
    const status = await new Deno.Command(Deno.execPath(), {
      args: build.args,
      cwd: root,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!status.success) return status.code || 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
