/**
 * Bundles the server (main.ts and everything it imports, npm packages included) into one ES module,
 * `dist/server/main.js`: what `deno task serve`, `deno task gateway` and the release binary run.
 *
 * Why one module: Deno keeps every module's source for the life of the process, with an inline source map
 * on each transpiled one, and ~1000 modules cost the idle gateway ~10 MB of heap and ~10-20 MB of RSS after
 * load (docs/scaling.md, "The server bundle"). The bundle drops whitespace but keeps every name, so a stack
 * trace still names its functions; to read one against the sources, run `deno run -A main.ts` instead.
 *
 * Code that finds files by `new URL(…, import.meta.url)` (worker entry points, migrations, the dashboard
 * bundle) keeps working: in each source module `import.meta.url` becomes that module's own URL, computed
 * from the bundle's at runtime, so the same relative paths resolve in a checkout and inside a compiled
 * binary. Worker entry points run from their sources, as before. Tests run the sources; a bundle test
 * starts the bundle end to end (tests/release/server_bundle_test.ts).
 *
 *   deno run -A scripts/build_server.ts [--outfile dist/server/main.js]
 */
import * as esbuild from "esbuild";
import { parseArgs } from "node:util";
import { builtinModules } from "node:module";
import { dirname, relative, resolve } from "node:path";

/** Where the bundle goes, relative to the repository. */
export const SERVER_BUNDLE = "dist/server/main.js";

/**
 * npm packages written as CommonJS call `require` for Node built-ins ("process", "buffer"); an ES module
 * has none, so the bundle makes one first.
 */
const REQUIRE_SHIM = 'import { createRequire as __bundleRequire } from "node:module";\n' +
  "const require = __bundleRequire(import.meta.url);";

/** Rewrites `import.meta.url` in the repository's own modules to the module's URL, relative to the bundle. */
function ownModuleUrls(root: string, outDir: string): esbuild.Plugin {
  return {
    name: "own-module-urls",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(root) || args.path.includes("/node_modules/")) return undefined;
        const source = await Deno.readTextFile(args.path);
        if (!source.includes("import.meta.url")) return undefined;
        const fromBundle = relative(outDir, args.path).split("\\").join("/");
        const own = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: source.replaceAll("import.meta.url", own), loader: "ts" };
      });
    },
  };
}

/** Node built-ins that npm packages name bare ("process", "buffer") are loaded as `node:` ones. */
const nodeBuiltins: esbuild.Plugin = {
  name: "node-builtins",
  setup(build) {
    const names = builtinModules.filter((name) => !name.startsWith("node:"));
    const bare = new RegExp(`^(${names.join("|")})$`);
    build.onResolve({ filter: bare }, (args) => ({ path: `node:${args.path}`, external: true }));
  },
};

/**
 * Builds the bundle from the repository at `root` into `outfile` (a path; relative to the working directory)
 * and returns what it leaves to the runtime to load (`node:` built-ins).
 */
export async function buildServer(root: URL, outfile: string): Promise<string[]> {
  const rootPath = root.pathname;
  outfile = resolve(outfile);
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [new URL("main.ts", root).pathname],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "esnext",
      // Node built-ins and anything addressed as npm: are the runtime's to load.
      external: ["node:*", "npm:*"],
      banner: { js: REQUIRE_SHIM },
      minifyWhitespace: true,
      minifySyntax: true,
      // No source map: Deno reads a linked one at start-up and holds it (~11 MB of RSS for ~5 MB of map).
      sourcemap: false,
      legalComments: "none",
      logLevel: "warning",
      plugins: [nodeBuiltins, ownModuleUrls(rootPath, dirname(outfile))],
      write: false,
      metafile: true,
    });
  } finally {
    await esbuild.stop();
  }
  // Written aside and renamed into place: a gateway starting (or a `serve --workers` supervisor starting a
  // worker) while another command rebuilds reads the old bundle or the new one, never half of one.
  const [output] = result.outputFiles;
  await Deno.mkdir(dirname(outfile), { recursive: true });
  const aside = `${outfile}.${Deno.pid}.tmp`;
  await Deno.writeFile(aside, output.contents);
  await Deno.rename(aside, outfile);
  const imports = Object.values(result.metafile.outputs).flatMap((out) => out.imports);
  return [...new Set(imports.filter((i) => i.external).map((i) => i.path))].sort();
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const { values } = parseArgs({
    args: Deno.args,
    options: { outfile: { type: "string", default: new URL(SERVER_BUNDLE, root).pathname } },
    strict: true,
  });
  await buildServer(root, values.outfile!);
}
