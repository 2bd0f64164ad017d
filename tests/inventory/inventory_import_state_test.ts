import { assertEquals } from "../helpers/assert.ts";
import {
  chat,
  chatAnswer,
  dashboard,
  inventoryYaml,
  startInventoryGateway,
  startUpstream,
} from "./inventory_helpers.ts";

type Json = Record<string, unknown>;
const DEAD = "sk-dead-imported-key-00000000001";
const OWN = "upstream-key-acct-a";

/**
 * An upstream that accepts only the provider's own key. The check of the dead key's model list is held
 * until `release()`, so the test can look at routing while that check is still running.
 */
async function startGatedUpstream() {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const upstream = await startUpstream(async ({ path, key }) => {
    calls.push(`${path} ${key}`);
    if (key !== OWN) {
      if (path === "/v1/models") await gate;
      return Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 });
    }
    if (path === "/v1/models") return Response.json({ object: "list", data: [{ id: "m1" }] });
    return chatAnswer();
  });
  return {
    url: upstream.url,
    calls,
    release,
    close: async () => {
      // A check still held at the gate would keep the server from finishing.
      release();
      await upstream.close();
    },
  };
}

Deno.test("an imported key the file calls active never carries traffic before or after this gateway's check rejects it", async () => {
  const upstream = await startGatedUpstream();
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    // The provider's own key (mirrored) becomes a routable account first.
    await gw.management.inventory.checks.idle();
    const stale = {
      keys: [{
        key_value: DEAD,
        provider_id: "p",
        key_label: "stale",
        status: "active",
        is_valid: 1,
        is_usable: 1,
        usability_status: "usable",
        credits_remaining: 40,
      }],
    };
    const imported = await dashboard(gw, "/dashboard/api/inventory/import", { method: "POST", body: stale });
    assertEquals(imported.status, 201);
    const id = (imported.body.results as Json[])[0].id as string;
    // Its check is held at the model list; rebuild routing now, as any other change would.
    gw.runtime.control.reload();
    const pending = (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body;
    const view = pending.key as Json;
    assertEquals([view.status, view.is_valid, view.routable, view.credits_remaining], [
      "pending_validation",
      false,
      false,
      40,
    ]);
    const first = (pending.history as Json[]).at(-1)!;
    assertEquals(String(first.notes).includes('the file said "active"'), true);
    for (let i = 0; i < 4; i++) assertEquals(await chat(gw), 200);

    upstream.release();
    await gw.management.inventory.checks.idle();
    const checked = (await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body.key as Json;
    assertEquals([checked.status, checked.routable], ["invalid", false]);
    for (let i = 0; i < 4; i++) assertEquals(await chat(gw), 200);
    assertEquals(upstream.calls.filter((c) => c === `/v1/chat/completions ${DEAD}`).length, 0);
    assertEquals(upstream.calls.filter((c) => c === `/v1/chat/completions ${OWN}`).length >= 8, true);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
