/**
 * The private-address guard of key checks is for URLs that arrive with pushed or imported keys: a provider row an
 * administrator created is checked at its own base URL even on loopback, and so is a key checked there.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { waitFor } from "../helpers/wait.ts";
import {
  ADMIN_KEY,
  dashboard,
  push,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";

const ROW_KEY = "sk-good-inventory-key-000000007";
const GOOD = "sk-good-inventory-key-000000001";
const GOOD_2 = "sk-good-inventory-key-000000002";

type Json = Record<string, unknown>;
type KeyRow = { id: string; status: string; label: string; last_error?: string };

/** A gateway with no provider yet, the guard on (the default), and provider keys checked (the default). */
const YAML = `api_keys:\n  - key: ${ADMIN_KEY}\n    client_key_label: admin\n` +
  "inventory:\n  check_provider_keys: true\n  check_interval_hours: 0\n";

async function keysOf(gw: Parameters<typeof dashboard>[0]): Promise<KeyRow[]> {
  const r = await dashboard(gw, "/dashboard/api/v2/state/inventory-keys?limit=200");
  return (r.body.data as Json).keys as KeyRow[];
}

Deno.test("key checks: a loopback provider created in the dashboard is checked healthy; a pushed key's own loopback URL is refused", async () => {
  const upstream = await startKeyAwareUpstream([ROW_KEY, GOOD, GOOD_2]);
  const gw = await startInventoryGateway(YAML);
  try {
    const created = await dashboard(gw, "/dashboard/api/providers", {
      method: "POST",
      body: {
        id: "local",
        prefix: "p",
        api_type: "chat_compat",
        base_url: `${upstream.url}/v1`,
        api_key: ROW_KEY,
        models: ["m1"],
      },
    });
    assertEquals(created.status, 201);
    // The row's key is mirrored and checked at the row's loopback URL: healthy, not "refused … private address".
    await waitFor(async () => (await keysOf(gw)).some((k) => k.label === "via Providers: local"), {
      what: "the provider's key mirrored",
    });
    await gw.management.inventory.checks.idle();
    const mirror = (await keysOf(gw)).find((k) => k.label === "via Providers: local")!;
    assertEquals(mirror.status, "active", JSON.stringify(mirror));
    assertEquals(upstream.calls.includes(`/v1/models ${ROW_KEY}`), true, "checked at the row's own URL");

    // A pushed key checked at the row's URL is trusted too; one that brings its own loopback URL is not.
    const elsewhere = `${upstream.url.replace("127.0.0.1", "localhost")}/v1`;
    const pushed = await push(gw, {
      keys: [
        { key: GOOD, provider: "p", label: "row-url" },
        { key: GOOD_2, provider: "p", label: "own-url", base_url: elsewhere },
      ],
    });
    assertEquals(pushed.status, 201);
    const [rowUrlKey, ownUrlKey] = (pushed.body.results as Json[]).map((r) => r.id as string);
    await gw.management.inventory.checks.idle();
    const detail = async (id: string) => (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body;
    const atRow = await detail(rowUrlKey);
    assertEquals((atRow.key as Json).status, "active");
    assertEquals(atRow.models, ["m1"]);
    const own = await detail(ownUrlKey);
    assertEquals((own.key as Json).status, "error");
    assertStringIncludes(JSON.stringify(own), "private, loopback or link-local");
    assertEquals(upstream.calls.some((c) => c.endsWith(GOOD_2)), false, "the refused URL was never called");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("key checks: with inventory.check_provider_keys off, a provider's own key is neither mirrored nor checked", async () => {
  const upstream = await startKeyAwareUpstream([ROW_KEY]);
  const gw = await startInventoryGateway(
    YAML.replace("check_provider_keys: true", "check_provider_keys: false"),
  );
  try {
    const created = await dashboard(gw, "/dashboard/api/providers", {
      method: "POST",
      body: {
        id: "local",
        prefix: "p",
        api_type: "chat_compat",
        base_url: `${upstream.url}/v1`,
        api_key: ROW_KEY,
      },
    });
    assertEquals(created.status, 201);
    await gw.management.inventory.checks.idle();
    assertEquals(await keysOf(gw), []);
    assertEquals(upstream.calls, []);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
