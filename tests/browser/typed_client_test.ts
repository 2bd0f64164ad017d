/**
 * The typed dashboard client in a real browser: one mutation of each feature goes through `call()` (the UI's
 * own client module, bundled as is) with the signed-in session, and the server's answer has the contract's
 * shape. The call table below is type-checked against the shared contract, so a route, body or answer the
 * server does not have fails `deno check` before it fails here.
 */
import * as esbuild from "esbuild";
import type { AnswerOf, ApiRoute } from "../../src/dashboard/contract/mod.ts";
import type { ApiResult, CallArgs } from "../../ui/src/api/client.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type Dashboard, openDashboard, skipReason } from "./harness.ts";

const ignore = skipReason();
if (ignore) console.warn(ignore);
const options = { ignore: ignore !== "", sanitizeOps: false, sanitizeResources: false };

/** The UI's client module as one script that puts `call` on `window.gwApi`. */
async function clientScript(): Promise<string> {
  try {
    const built = await esbuild.build({
      entryPoints: [new URL("../../ui/src/api/client.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "iife",
      globalName: "gwApi",
      target: "es2022",
      logLevel: "silent",
    });
    return built.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}

/** Calls one route through the page's typed client; the arguments and the answer are the contract's. */
function callInPage<R extends ApiRoute>(
  d: Dashboard,
  route: R,
  args?: CallArgs<R>,
): Promise<ApiResult<AnswerOf<R>>> {
  return d.page.evaluate(
    ([r, a]) =>
      (globalThis as unknown as { gwApi: { call(r: string, a?: unknown): Promise<never> } }).gwApi.call(r, a),
    [route, args] as const,
  );
}

/** Unwraps a successful call, failing with the server's message otherwise. */
function ok<T>(result: ApiResult<T>, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: HTTP ${result.status} ${result.message}`);
  return result.data;
}

Deno.test({
  ...options,
  name:
    "typed client: one mutation of each feature goes through call() in the browser and answers the contract",
  fn: async () => {
    await using d = await openDashboard();
    await d.signIn("/dashboard/ui");
    await d.page.addScriptTag({ content: await clientScript() });

    const provider = ok(
      await callInPage(d, "POST /providers/:id/disable", { params: { id: "acct-a" } }),
      "providers",
    );
    assertEquals([provider.provider.id, provider.provider.enabled], ["acct-a", false]);

    const combo = ok(
      await callInPage(d, "POST /combos", { body: { name: "duo", models: ["p/m1"] } }),
      "combos",
    );
    assertEquals(
      [combo.combo.name, combo.combo.unroutable],
      ["duo", ["p/m1"]],
      "p/m1 is off with its provider",
    );

    const key = ok(
      await callInPage(d, "POST /v2/keys", { body: { name: "ci", allowed_models: "p/m1" } }),
      "keys",
    );
    assertEquals([key.key.name, key.key.role, key.key.allowed_models], ["ci", "viewer", ["p/m1"]]);
    assert(key.plaintext.length > 20, "the new key's plaintext is shown once");

    const budget = ok(
      await callInPage(d, "POST /budgets", { body: { scope: key.key.id, daily_limit: 5 } }),
      "budgets",
    );
    assertEquals([budget.budget.key_id, budget.budget.daily_limit, budget.budget.warn_pct], [
      key.key.id,
      5,
      80,
    ]);

    const price = ok(
      await callInPage(d, "POST /pricing", {
        body: { model: "p/m1", input_per_mtok: 1, output_per_mtok: 2 },
      }),
      "pricing",
    );
    assertEquals(price.price, {
      model: "p/m1",
      input_per_mtok: 1,
      output_per_mtok: 2,
      cache_creation_per_mtok: 0,
      cache_read_per_mtok: 0,
    });
    ok(await callInPage(d, "DELETE /pricing/:model", { params: { model: "p/m1" } }), "pricing delete");

    const settings = ok(
      await callInPage(d, "POST /settings", { body: { saver_caveman_enabled: true } }),
      "settings",
    );
    assertEquals([settings.changed, settings.settings.saver_caveman_enabled], [
      ["saver_caveman_enabled"],
      true,
    ]);

    const recheck = ok(await callInPage(d, "POST /inventory/recheck"), "inventory");
    assertEquals(recheck.ok, true);
    assertEquals(typeof recheck.queued, "number");

    const cleared = ok(await callInPage(d, "DELETE /request-logs"), "request logs");
    assertEquals([cleared.ok, typeof cleared.deleted], [true, "number"]);

    const cooldowns = ok(await callInPage(d, "POST /routing/clear-cooldowns"), "routing");
    assertEquals(cooldowns, { ok: true, cleared: 0 });

    // An API-key provider has nothing to sign in to: the one error body reaches the client as a message.
    const signin = await callInPage(d, "POST /providers/:id/connect", { params: { id: "acct-a" }, body: {} });
    assert(!signin.ok, "connecting an API-key provider is refused");
    assertEquals(signin.status, 400);
    assertStringIncludes(signin.message, "acct-a");

    const reset = ok(await callInPage(d, "POST /reset"), "backup");
    assertEquals([reset.seeded.providers, reset.seeded.combos], [1, 1]);
    const state = await fetch(`${d.gw.url}/dashboard/api/v2/state/providers`, {
      headers: { authorization: `Bearer ${d.key}` },
    }).then((r) => r.json());
    assertEquals(state.data.providers[0].enabled, true, "Reset brought the file's provider back");

    // A field error arrives as the contract's one error body and lands on its field.
    const refused = await callInPage(d, "POST /combos", { body: { name: "bad name", models: ["p/m1"] } });
    assert(!refused.ok);
    assertEquals([refused.status, Object.keys(refused.fields)], [400, ["name"]]);
    assertEquals(d.consoleErrors, []);
  },
});
