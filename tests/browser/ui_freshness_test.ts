import { Hono } from "hono";
import type { AppEnv } from "../../src/http/env.ts";
import { sourceBuilder, uiRoutes } from "../../src/http/ui_assets.ts";
import { BUILD_INFO, hasUiSources, uiIsStale } from "../../src/http/ui_freshness.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";

/** A checkout-shaped folder: ui/src/main.ts and ui/index.html, and a dist built from them. */
async function builtCheckout(): Promise<URL> {
  const root = await Deno.makeTempDir({ prefix: "ui-fresh-" });
  await Deno.mkdir(`${root}/ui/src`, { recursive: true });
  await Deno.mkdir(`${root}/ui/dist`);
  await Deno.writeTextFile(`${root}/ui/src/main.ts`, "console.log(1);\n");
  await Deno.writeTextFile(`${root}/ui/index.html`, "<!doctype html><gw-app></gw-app>\n");
  for (const name of ["index.html", "app.js", "app.css", "theme.js"]) {
    await Deno.writeTextFile(`${root}/ui/dist/${name}`, name === "index.html" ? "<!doctype html>" : "x");
  }
  await Deno.writeTextFile(
    `${root}/ui/dist/${BUILD_INFO}`,
    JSON.stringify({ inputs: ["ui/index.html", "ui/src/main.ts"] }),
  );
  // Sources one minute older than the build record.
  const past = new Date(Date.now() - 60_000);
  await Deno.utime(`${root}/ui/src/main.ts`, past, past);
  await Deno.utime(`${root}/ui/index.html`, past, past);
  return new URL(`file://${root}/ui/`);
}

Deno.test("uiIsStale() is false for a dist built after its sources, true once a source is newer or gone", async () => {
  const ui = await builtCheckout();
  assert(await hasUiSources(ui));
  assertEquals(await uiIsStale(ui), false);
  const future = new Date(Date.now() + 60_000);
  await Deno.utime(new URL("src/main.ts", ui), future, future);
  assertEquals(await uiIsStale(ui), true, "an edited source");
  await Deno.remove(new URL("src/main.ts", ui));
  assertEquals(await uiIsStale(ui), true, "a removed source");
  await Deno.remove(new URL(`../`, ui), { recursive: true });
});

Deno.test("uiIsStale() is true without a build record or with an output missing", async () => {
  const ui = await builtCheckout();
  await Deno.remove(new URL("dist/app.js", ui));
  assertEquals(await uiIsStale(ui), true);
  await Deno.remove(new URL(`dist/${BUILD_INFO}`, ui));
  assertEquals(await uiIsStale(ui), true);
  await Deno.remove(new URL(`../`, ui), { recursive: true });
});

Deno.test("sourceBuilder() leaves a dist alone where there are no sources (a compiled binary)", async () => {
  const root = await Deno.makeTempDir({ prefix: "ui-nosrc-" });
  const ui = new URL(`file://${root}/ui/`);
  assertEquals(await hasUiSources(ui), false);
  await sourceBuilder(ui)(); // resolves without building: nothing to build from
  assertEquals([...Deno.readDirSync(root)], []);
  await Deno.remove(root, { recursive: true });
});

Deno.test("uiRoutes() runs its builder once before the first answer, never serves the build record, and names a failed build", async () => {
  const ui = await builtCheckout();
  let builds = 0;
  const app = new Hono<AppEnv>();
  app.route("/", uiRoutes(new URL("dist/", ui), () => Promise.resolve(void builds++)));
  assertEquals((await app.request("/dashboard/ui")).status, 200);
  assertEquals((await app.request("/dashboard/ui/app.js")).status, 200);
  assertEquals(builds, 1);
  assertEquals((await app.request(`/dashboard/ui/${BUILD_INFO}`)).status, 404);

  const failing = new Hono<AppEnv>();
  failing.route(
    "/",
    uiRoutes(new URL("file:///nonexistent-ui/dist/"), () => Promise.reject(new Error("boom"))),
  );
  const response = await failing.request("/dashboard/ui");
  assertEquals(response.status, 503);
  assertStringIncludes(await response.text(), "Building it failed: boom");
  await Deno.remove(new URL(`../`, ui), { recursive: true });
});
