/**
 * Bundles the dashboard UI (`ui/`) into `ui/dist/`: app.js (ES module), theme.js (a tiny classic script
 * that applies the stored theme before first paint), app.css (design tokens) and index.html.
 * Usage: `deno task build:ui` (add `--watch` to rebuild on change).
 */
import * as esbuild from "esbuild";

const root = new URL("../ui/", import.meta.url);
const outDir = new URL("dist/", root);
const watch = Deno.args.includes("--watch");

/** Options shared by both bundles. Lit needs define semantics off: see TOOLING.md. */
const common: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  legalComments: "none",
  target: "es2022",
  logLevel: "warning",
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
};

async function writeStatic(): Promise<void> {
  await Deno.mkdir(outDir, { recursive: true });
  await Deno.copyFile(new URL("index.html", root), new URL("index.html", outDir));
}

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

async function report(): Promise<void> {
  const lines: string[] = [];
  let raw = 0;
  let gz = 0;
  for (const name of ["index.html", "theme.js", "app.css", "app.js"]) {
    const bytes = await Deno.readFile(new URL(name, outDir));
    const zipped = await gzipSize(bytes);
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

const builds: esbuild.BuildOptions[] = [
  {
    ...common,
    entryPoints: [new URL("src/main.ts", root).pathname],
    outfile: new URL("app.js", outDir).pathname,
    format: "esm",
  },
  {
    ...common,
    entryPoints: [new URL("src/theme_boot.ts", root).pathname],
    outfile: new URL("theme.js", outDir).pathname,
    format: "iife",
  },
  {
    ...common,
    entryPoints: [new URL("src/styles/app.css", root).pathname],
    outfile: new URL("app.css", outDir).pathname,
  },
];

try {
  await writeStatic();
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    console.log("watching ui/ for changes (Ctrl+C to stop)");
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
    await report();
  }
} finally {
  if (!watch) await esbuild.stop();
}
