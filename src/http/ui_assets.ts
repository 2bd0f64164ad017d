import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";
import { hasUiSources, uiIsStale } from "./ui_freshness.ts";
import { log } from "../log.ts";

/** One prepared static asset: raw and gzip bytes with a strong ETag. */
interface Asset {
  readonly body: Uint8Array;
  readonly gzip: Uint8Array | null;
  readonly type: string;
  readonly etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  map: "application/json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  woff2: "font/woff2",
};

const COMPRESSIBLE = new Set(["html", "js", "css", "json", "svg", "map", "txt"]);

/** Message for a missing bundle: the server still runs, only the UI is unavailable. */
const NOT_BUILT = "The dashboard UI is not built. Run `deno task build:ui` and reload this page.\n";

/** Builds a missing or stale bundle before it is first served; rejects when the build fails. */
export type UiBuilder = () => Promise<void>;

/**
 * Serves the bundled dashboard (`ui/dist/`) at /dashboard/ui and /dashboard/ui/*: known files as
 * assets, any other path as index.html so deep links reach the client-side router. Before the first
 * answer, `build` brings the bundle up to date (by default: from `ui/src` when this is a source checkout,
 * so `gateway serve` works without `deno task build:ui`; a compiled binary has no sources and serves what
 * it embeds). Assets are then read once (the URL form works inside `deno compile --include ui/dist/`),
 * gzipped ahead of time, and revalidated with ETags. Authentication is the caller's job.
 */
export function uiRoutes(
  distUrl: URL = new URL("../../ui/dist/", import.meta.url),
  build: UiBuilder | null = sourceBuilder(new URL("../", distUrl)),
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let assets: Promise<Map<string, Asset> | null> | null = null;
  let buildError = "";
  const prepare = async () => {
    if (build !== null && buildError === "") {
      try {
        await build();
      } catch (error) {
        // Reported once and not retried on every request; a manual `deno task build:ui` still helps.
        buildError = (error as Error).message.split("\n")[0];
        log("error", `building the dashboard UI failed: ${buildError}`);
      }
    }
    return loadAssets(distUrl);
  };
  const load = () => {
    assets ??= prepare().then((found) => {
      if (found === null) assets = null; // retry later: the bundle may be built while we run
      return found;
    });
    return assets;
  };

  const serve = async (c: Context<AppEnv>) => {
    const found = await load();
    if (found === null) {
      const why = buildError ? `Building it failed: ${buildError}\n` : "";
      return c.text(NOT_BUILT + why, 503, { "cache-control": "no-store", "retry-after": "5" });
    }
    const rest = c.req.path.replace(/^\/dashboard\/ui\/?/, "");
    const direct = rest !== "" && !rest.includes("..") ? found.get(rest) : undefined;
    if (!direct && /\.[a-z0-9]+$/i.test(rest) && !rest.includes("/")) {
      // A missing file with an extension is a broken asset link, not a screen: say so plainly.
      return c.text(`No dashboard asset named ${rest}\n`, 404, { "cache-control": "no-store" });
    }
    const asset = direct ?? found.get("index.html");
    if (!asset) return c.text(NOT_BUILT, 503, { "cache-control": "no-store" });
    return respond(c.req.raw, asset);
  };

  app.get("/dashboard/ui", serve);
  app.get("/dashboard/ui/*", serve);
  app.on("HEAD", ["/dashboard/ui", "/dashboard/ui/*"], serve);
  return app;
}

/**
 * The default builder: when `uiRoot` holds sources and the bundle is missing or older than them, runs
 * scripts/build_ui.ts in this process. The module is loaded by a computed URL so that `deno compile`
 * does not embed esbuild; a compiled binary has no sources and never gets here.
 */
export function sourceBuilder(uiRoot: URL): UiBuilder {
  return async () => {
    if (!(await hasUiSources(uiRoot)) || !(await uiIsStale(uiRoot))) return;
    const script = new URL("../scripts/build_ui.ts", uiRoot).href;
    const started = performance.now();
    const { buildUi } = await import(script) as { buildUi(root: URL): Promise<void> };
    await buildUi(uiRoot);
    log("info", `built the dashboard UI in ${Math.round(performance.now() - started)} ms`);
  };
}

function respond(request: Request, asset: Asset): Response {
  const headers = new Headers({
    "content-type": asset.type,
    "etag": asset.etag,
    "cache-control": "no-cache",
    "vary": "accept-encoding",
    "x-content-type-options": "nosniff",
  });
  if (etagMatches(request.headers.get("if-none-match"), asset.etag)) {
    return new Response(null, { status: 304, headers });
  }
  const useGzip = asset.gzip !== null && acceptsGzip(request.headers.get("accept-encoding"));
  const body = useGzip ? asset.gzip! : asset.body;
  if (useGzip) headers.set("content-encoding", "gzip");
  headers.set("content-length", String(body.byteLength));
  return new Response(request.method === "HEAD" ? null : body as BlobPart, { status: 200, headers });
}

/** True when an If-None-Match header names the ETag (weak or strong) or is `*`. */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((part) => {
    const tag = part.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

/** True when Accept-Encoding allows gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name.trim() !== "gzip" && name.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

async function loadAssets(distUrl: URL): Promise<Map<string, Asset> | null> {
  const assets = new Map<string, Asset>();
  try {
    for await (const entry of Deno.readDir(distUrl)) {
      if (!entry.isFile || entry.name.startsWith(".")) continue;
      const body = await Deno.readFile(new URL(entry.name, distUrl));
      const ext = entry.name.split(".").pop()?.toLowerCase() ?? "";
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body as BufferSource));
      const etag = `"${[...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
      const gzip = COMPRESSIBLE.has(ext) && body.byteLength > 512 ? await gzipBytes(body) : null;
      assets.set(entry.name, {
        body,
        gzip: gzip !== null && gzip.byteLength < body.byteLength ? gzip : null,
        type: CONTENT_TYPES[ext] ?? "application/octet-stream",
        etag,
      });
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  return assets.has("index.html") ? assets : null;
}

async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
