/**
 * Bundles the dashboard UI (`ui/`) into `ui/dist/`: app.js (ES module), theme.js (a tiny classic script
 * that applies the stored theme before first paint), app.css (design tokens) and index.html, plus
 * `.build.json`, the list of source files the bundle was made from (the server rebuilds when one of them
 * is newer than the bundle, see src/http/ui_assets.ts).
 * Usage: `deno task build:ui` (add `--watch` to rebuild on change). `gateway serve` calls `buildUi()`.
 */
import * as esbuild from "esbuild";
import { BUILD_INFO, type BuildInfo } from "../src/http/ui_freshness.ts";

/** Options shared by every bundle. Lit needs define semantics off: see TOOLING.md. */
const common: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  legalComments: "none",
  target: "es2022",
  logLevel: "warning",
  metafile: true,
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
};

function buildsFor(uiRoot: URL): esbuild.BuildOptions[] {
  const outDir = new URL("dist/", uiRoot);
  const path = (relative: string, base: URL) => new URL(relative, base).pathname;
  return [
    {
      ...common,
      entryPoints: [path("src/main.ts", uiRoot)],
      outfile: path("app.js", outDir),
      format: "esm",
    },
    {
      ...common,
      entryPoints: [path("src/theme_boot.ts", uiRoot)],
      outfile: path("theme.js", outDir),
      format: "iife",
    },
    { ...common, entryPoints: [path("src/styles/app.css", uiRoot)], outfile: path("app.css", outDir) },
  ];
}

/**
 * Builds `ui/dist/` from the sources under `uiRoot` once, then records which files went in. The esbuild
 * service is stopped afterwards so a server that built its UI keeps no child process.
 */
export async function buildUi(uiRoot: URL = new URL("../ui/", import.meta.url)): Promise<void> {
  const outDir = new URL("dist/", uiRoot);
  await Deno.mkdir(outDir, { recursive: true });
  try {
    const results = await Promise.all(buildsFor(uiRoot).map((options) => esbuild.build(options)));
    await Deno.copyFile(new URL("index.html", uiRoot), new URL("index.html", outDir));
    // esbuild names inputs relative to the working directory; store them relative to the repository.
    const cwd = `${Deno.cwd()}/`;
    const repo = new URL("../", uiRoot).pathname;
    const inputs = new Set<string>(["ui/index.html"]);
    for (const result of results) {
      for (const input of Object.keys(result.metafile?.inputs ?? {})) {
        const absolute = input.startsWith("/") ? input : `${cwd}${input}`;
        if (absolute.startsWith(repo) && !absolute.includes("/node_modules/")) {
          inputs.add(absolute.slice(repo.length));
        }
      }
    }
    const info: BuildInfo = { inputs: [...inputs].sort() };
    // Written last: its time stamp is the bundle's.
    await Deno.writeTextFile(new URL(BUILD_INFO, outDir), JSON.stringify(info, null, 2) + "\n");
  } finally {
    await esbuild.stop();
  }
}

async function report(outDir: URL): Promise<void> {
  const lines: string[] = [];
  let raw = 0;
  let gz = 0;
  for (const name of ["index.html", "theme.js", "app.css", "app.js"]) {
    const bytes = await Deno.readFile(new URL(name, outDir));
    const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
    const zipped = (await new Response(stream).arrayBuffer()).byteLength;
    raw += bytes.byteLength;
    gz += zipped;
    lines.push(`  ${name.padEnd(11)} ${kb(bytes.byteLength).padStart(9)}  gzip ${kb(zipped).padStart(8)}`);
  }
  lines.push(`  ${"total".padEnd(11)} ${kb(raw).padStart(9)}  gzip ${kb(gz).padStart(8)}`);
  console.log(`ui/dist built:\n${lines.join("\n")}`);
}

function kb(n: number): string {
  return `${(n / 1024).toFixed(1)} KB`;
}

if (import.meta.main) {
  const uiRoot = new URL("../ui/", import.meta.url);
  if (Deno.args.includes("--watch")) {
    await Deno.mkdir(new URL("dist/", uiRoot), { recursive: true });
    await Deno.copyFile(new URL("index.html", uiRoot), new URL("dist/index.html", uiRoot));
    for (const options of buildsFor(uiRoot)) await (await esbuild.context(options)).watch();
    console.log("watching ui/ for changes (Ctrl+C to stop)");
  } else {
    await buildUi(uiRoot);
    await report(new URL("dist/", uiRoot));
  }
}
