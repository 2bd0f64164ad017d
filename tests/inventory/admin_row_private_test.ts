/**
 * The private-address guard of key checks is for URLs that arrive with pushed or imported keys: a key checked
 * at the base URL of a provider row an administrator created is checked there even on loopback.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";

const GOOD = "sk-good-inventory-key-000000001";
const GOOD_2 = "sk-good-inventory-key-000000002";

type Json = Record<string, unknown>;

Deno.test("key checks: the admin's loopback provider row is checked; a pushed key's own loopback URL is refused", async () => {
  const upstream = await startKeyAwareUpstream([GOOD, GOOD_2]);
  const yaml = inventoryYaml(upstream.url).replace(
    "allow_private_targets: true",
    "allow_private_targets: false",
  );
  const gw = await startInventoryGateway(yaml);
  try {
    const elsewhere = upstream.url.replace("127.0.0.1", "localhost");
    const pushed = await push(gw, {
      keys: [
        { key: GOOD, provider: "p", label: "row-url" },
        { key: GOOD_2, provider: "p", label: "own-url", base_url: elsewhere },
      ],
    });
    assertEquals(pushed.status, 201);
    const [rowKey, ownKey] = (pushed.body.results as Json[]).map((r) => r.id as string);
    await gw.management.inventory.checks.idle();
    const detail = async (id: string) => (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body;
    const row = await detail(rowKey);
    assertEquals((row.key as Json).status, "active");
    assertEquals(row.models, ["m1"]);
    const own = await detail(ownKey);
    assertEquals((own.key as Json).status, "error");
    assertStringIncludes(JSON.stringify(own), "private, loopback or link-local");
    assertEquals(upstream.calls.some((c) => c.endsWith(GOOD_2)), false, "the refused URL was never called");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
