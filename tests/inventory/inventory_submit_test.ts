import { assert, assertEquals } from "../helpers/assert.ts";
import { SubmitLimiter } from "../../src/features/inventory/submit_limiter.ts";
import { MAX_IMPORT } from "../../src/features/mod.ts";
import {
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";

type Json = Record<string, unknown>;

/** An import document in the export's shape with `n` distinct keys of provider `p`. */
function exportOf(n: number, tag: string): Json {
  const keys = Array.from({ length: n }, (_, i) => ({
    key_value: `sk-${tag}-import-key-${String(i).padStart(6, "0")}`,
    provider_id: "p",
    key_label: tag,
  }));
  return { exported_at: "2026-11-01T00:00:00Z", count: n, keys };
}

async function storedKeys(gw: Parameters<typeof dashboard>[0]): Promise<number> {
  const r = await dashboard(gw, "/dashboard/api/v2/state/inventory-keys?limit=1");
  return Number((r.body.data as Json).total);
}

Deno.test("SubmitLimiter: one oversized submission passes on an empty budget and blocks for the windows it filled", () => {
  const limiter = new SubmitLimiter(10, 60_000);
  assertEquals(limiter.take("a", 4, 0), { ok: true });
  assertEquals(limiter.take("a", 7, 1000), { ok: false, retryAfterS: 59 }, "4 + 7 passes 10: refused");
  assertEquals(limiter.take("a", 6, 1000), { ok: true });
  assertEquals(limiter.take("b", 35, 0), { ok: true }, "nothing counted for b: a large import passes");
  assertEquals(limiter.take("b", 1, 60_000), { ok: false, retryAfterS: 180 }, "35 keys fill 4 windows");
  assertEquals(limiter.take("b", 1, 240_000), { ok: true });
});

Deno.test("push, Add Keys and Import JSON count against one per-client budget; an import counts the keys it holds", async () => {
  const upstream = await startKeyAwareUpstream([]);
  const gw = await startInventoryGateway(
    inventoryYaml(upstream.url, "  push_rate_limit: 5\n  push_rate_window_s: 3600\n"),
  );
  try {
    const before = await storedKeys(gw);
    const added = await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: "sk-budget-add-key-0000000001\nsk-budget-add-key-0000000002", provider: "p" },
    });
    assertEquals(added.status, 201);
    const tooMany = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exportOf(4, "four"),
    });
    assertEquals(tooMany.status, 429, "one {keys:[…]} document of 4 keys counts as 4, not 1");
    assertEquals(await storedKeys(gw), before + 2, "a refused import stores nothing");
    const fits = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exportOf(3, "three"),
    });
    assertEquals([fits.status, (fits.body.summary as Json).registered], [201, 3]);
    const pushed = await push(gw, { key: "sk-budget-push-key-000000001", provider: "p" });
    assertEquals(pushed.status, 429, "push shares the budget Add Keys and import used up");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("an import larger than the push budget and the 200-key batch round-trips; past MAX_IMPORT it is a 413", async () => {
  const upstream = await startKeyAwareUpstream([]);
  const gw = await startInventoryGateway(
    inventoryYaml(upstream.url, "  push_rate_limit: 100\n  push_rate_window_s: 60\n  check_concurrency: 8\n"),
  );
  try {
    const huge = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exportOf(MAX_IMPORT + 1, "huge"),
    });
    assertEquals([huge.status, (huge.body.error as Json).field], [413, "keys"]);
    const big = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exportOf(1000, "big"),
    });
    assertEquals([big.status, (big.body.summary as Json).registered], [201, 1000]);
    const next = await fetch(`${gw.url}/dashboard/api/inventory/push`, {
      method: "POST",
      headers: { authorization: "Bearer push-token-inventory-test", "content-type": "application/json" },
      body: JSON.stringify({ key: "sk-budget-push-key-000000002", provider: "p" }),
    });
    await next.body?.cancel();
    assertEquals(next.status, 429);
    const wait = Number(next.headers.get("retry-after"));
    assert(wait > 540 && wait <= 600, `1,000 keys at 100 per 60 s wait ten windows, not one (${wait} s)`);
    await gw.management.inventory.checks.idle();
    const modelCalls = upstream.calls.filter((c) => c.startsWith("/v1/models sk-big-")).length;
    assertEquals(modelCalls, 1000, "every imported key was checked once, through the bounded queue");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
