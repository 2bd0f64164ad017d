import { Hono } from "hono";
import { acceptsGzip, etagMatches, uiRoutes } from "../../src/http/ui_assets.ts";
import type { AppEnv } from "../../src/http/env.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";

function distWith(files: Record<string, string>): URL {
  const dir = Deno.makeTempDirSync({ prefix: "ui-dist-" });
  for (const [name, text] of Object.entries(files)) Deno.writeTextFileSync(`${dir}/${name}`, text);
  return new URL(`file://${dir}/`);
}

function app(dist: URL): Hono<AppEnv> {
  const root = new Hono<AppEnv>();
  root.route("/", uiRoutes(dist));
  return root;
}

const INDEX = `<!doctype html><title>x</title>${"<!-- pad -->".repeat(100)}`;
const APP_JS = `console.log("app");${" ".repeat(2000)}`;

Deno.test("uiRoutes() serves assets with their content type and an ETag, and answers 304 to If-None-Match", async () => {
  const dist = distWith({ "index.html": INDEX, "app.js": APP_JS, "app.css": "body{}" });
  const ui = app(dist);
  const first = await ui.request("/dashboard/ui/app.js");
  assertEquals(first.status, 200);
  assertEquals(first.headers.get("content-type"), "text/javascript; charset=utf-8");
  assertEquals(first.headers.get("cache-control"), "no-cache");
  assertEquals(await first.text(), APP_JS);
  const etag = first.headers.get("etag");
  assert(etag);
  const again = await ui.request("/dashboard/ui/app.js", { headers: { "if-none-match": etag } });
  assertEquals(again.status, 304);
  assertEquals(await again.text(), "");
  const css = await ui.request("/dashboard/ui/app.css");
  assertEquals(css.headers.get("content-type"), "text/css; charset=utf-8");
});

Deno.test("uiRoutes() sends precomputed gzip only to clients that accept it", async () => {
  const ui = app(distWith({ "index.html": INDEX, "app.js": APP_JS }));
  const zipped = await ui.request("/dashboard/ui/app.js", { headers: { "accept-encoding": "gzip, br" } });
  assertEquals(zipped.headers.get("content-encoding"), "gzip");
  assertEquals(zipped.headers.get("vary"), "accept-encoding");
  const body = await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).text();
  assertEquals(body, APP_JS);
  const plain = await ui.request("/dashboard/ui/app.js", { headers: { "accept-encoding": "gzip;q=0" } });
  assertEquals(plain.headers.get("content-encoding"), null);
});

Deno.test("uiRoutes() answers index.html for screen paths so deep links reach the client router", async () => {
  const ui = app(distWith({ "index.html": INDEX, "app.js": APP_JS }));
  for (
    const path of [
      "/dashboard/ui",
      "/dashboard/ui/",
      "/dashboard/ui/keys",
      "/dashboard/ui/request-logs?page=2",
    ]
  ) {
    const response = await ui.request(path);
    assertEquals(response.status, 200, path);
    assertEquals(response.headers.get("content-type"), "text/html; charset=utf-8");
    assertStringIncludes(await response.text(), "<!doctype html>");
  }
  const missing = await ui.request("/dashboard/ui/nope.js");
  assertEquals(missing.status, 404);
});

Deno.test("uiRoutes() says to run `deno task build:ui` with 503 when ui/dist is missing", async () => {
  const ui = app(new URL("file:///nonexistent-ui-dist/"));
  const response = await ui.request("/dashboard/ui/keys");
  assertEquals(response.status, 503);
  assertStringIncludes(await response.text(), "deno task build:ui");
});

Deno.test("etagMatches() and acceptsGzip() read the request headers as RFC 9110 says", () => {
  assert(etagMatches('"a", "b"', '"b"'));
  assert(etagMatches('W/"b"', '"b"'));
  assert(etagMatches("*", '"b"'));
  assert(!etagMatches('"c"', '"b"'));
  assert(!etagMatches(null, '"b"'));
  assert(acceptsGzip("gzip, deflate"));
  assert(acceptsGzip("br;q=1, gzip;q=0.5"));
  assert(!acceptsGzip("gzip;q=0"));
  assert(!acceptsGzip("br"));
  assert(!acceptsGzip(null));
});
