import { assert, assertEquals } from "../helpers/assert.ts";
import {
  chat,
  dashboard,
  inventoryYaml,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";

type Json = Record<string, unknown>;
const key = (name: string) => `sk-order-${name}-key-000000000001`;

Deno.test("routable keys are ordered by priority, then known credit, then most credit; the first carries the first request", async () => {
  const names = ["low-credit", "high-credit", "no-credit", "priority"];
  const upstream = await startKeyAwareUpstream(names.map(key));
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    // Import order is the reverse of the expected order, so insertion order cannot explain the result.
    const rows = [
      { key_value: key("no-credit"), provider_id: "p", key_label: "no-credit" },
      { key_value: key("low-credit"), provider_id: "p", key_label: "low-credit", credits_remaining: 5 },
      { key_value: key("high-credit"), provider_id: "p", key_label: "high-credit", credits_remaining: 50 },
      {
        key_value: key("priority"),
        provider_id: "p",
        key_label: "priority",
        priority: 1,
        credits_remaining: 1,
      },
    ];
    const imported = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: { keys: rows },
    });
    assertEquals(imported.status, 201);
    const idOf = new Map((imported.body.results as Json[]).map((r) => [r.label as string, r.id as string]));
    await gw.management.inventory.checks.idle();

    const expected = ["priority", "high-credit", "low-credit", "no-credit"].map((n) => idOf.get(n)!);
    const routable = gw.runtime.control.store.inventory.routable().map((k) => k.id);
    assertEquals(routable.filter((id) => expected.includes(id)), expected);
    const routing = (await dashboard(gw, "/dashboard/api/v2/state/routing")).body.data as Json;
    const accounts = (routing.prefixes as { prefix: string; accounts: { id: string }[] }[])
      .find((p) => p.prefix === "p")!.accounts.map((a) => a.id.replace(/^acct-a::/, ""));
    assertEquals(accounts.filter((id) => expected.includes(id)), expected, "the Routing screen's order");
    const probes = upstream.chatCallsWith(key("priority"));
    assertEquals(await chat(gw), 200);
    assertEquals(upstream.chatCallsWith(key("priority")), probes + 1, "the first account takes the request");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("a viewer is refused the plaintext inventory export and every inventory change, and may still list keys", async () => {
  const secret = key("viewer-secret");
  const upstream = await startKeyAwareUpstream([secret]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: secret, provider: "p" },
    });
    const made = await dashboard(gw, "/dashboard/api/v2/keys", {
      method: "POST",
      body: { name: "looker", role: "viewer" },
    });
    assertEquals(made.status, 201);
    const viewerKey = made.body.plaintext as string;
    const as = async (path: string, method = "GET", body?: unknown) => {
      const response = await fetch(`${gw.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${viewerKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    };
    assertEquals(JSON.parse((await as("/dashboard/api/me")).text).role, "viewer");
    for (
      const [path, method, body] of [
        ["/dashboard/api/inventory/export?include_secrets=true", "GET"],
        ["/dashboard/api/inventory/export?include_secrets=true&provider_id=p", "GET"],
        ["/dashboard/api/inventory/export/?include_secrets=true", "GET"],
        ["/dashboard/api/inventory/import", "POST", { keys: [key("viewer-import")] }],
        ["/dashboard/api/inventory/keys", "POST", { text: key("viewer-add"), provider: "p" }],
        ["/dashboard/api/inventory/recheck", "POST"],
      ] as [string, string, unknown?][]
    ) {
      const answer = await as(path, method, body);
      assertEquals(answer.status, 403, `${method} ${path}`);
      assert(answer.text.includes("viewer") && !answer.text.includes(secret), path);
    }
    const listed = await as("/dashboard/api/v2/state/inventory-keys?limit=50");
    assertEquals(listed.status, 200);
    assert(!listed.text.includes(secret), "the list is masked");
    const admin = await fetch(`${gw.url}/dashboard/api/inventory/export?include_secrets=true`, {
      headers: { authorization: "Bearer static-admin-key-1234567890" },
    });
    assert((await admin.text()).includes(secret), "an administrator gets the plaintext export");
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
