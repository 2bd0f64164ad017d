/**
 * Whether the dashboard bundle in `ui/dist/` matches its sources. The build (scripts/build_ui.ts) writes
 * `.build.json` last, listing every source file that went into the bundle; the bundle is stale when that
 * record is missing or any listed file is newer than it (or gone).
 */

/** Name of the build record inside the dist folder (a dot file: never served). */
export const BUILD_INFO = ".build.json";

/** The build record: source files relative to the repository root. */
export interface BuildInfo {
  readonly inputs: readonly string[];
}

/** The files a built dist folder must hold before it is served. */
const OUTPUTS = ["index.html", "app.js", "app.css", "theme.js"];

/** True when `ui/` has sources to build from: a source checkout, not a compiled binary. */
export async function hasUiSources(uiRoot: URL): Promise<boolean> {
  return (await mtime(new URL("src/main.ts", uiRoot))) !== null;
}

/** True when `uiRoot/dist/` is missing, incomplete, or older than a file it was built from. */
export async function uiIsStale(uiRoot: URL): Promise<boolean> {
  const dist = new URL("dist/", uiRoot);
  const builtAt = await mtime(new URL(BUILD_INFO, dist));
  if (builtAt === null) return true;
  for (const name of OUTPUTS) if ((await mtime(new URL(name, dist))) === null) return true;
  let info: BuildInfo;
  try {
    info = JSON.parse(await Deno.readTextFile(new URL(BUILD_INFO, dist)));
  } catch {
    return true;
  }
  const repo = new URL("../", uiRoot);
  for (const input of info.inputs ?? []) {
    const changed = await mtime(new URL(input, repo));
    if (changed === null || changed > builtAt) return true;
  }
  return false;
}

async function mtime(url: URL): Promise<number | null> {
  try {
    return (await Deno.stat(url)).mtime?.getTime() ?? 0;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
