import { assert, assertEquals } from "../helpers/assert.ts";
import {
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";
import { ADMIN_KEY } from "./inventory_helpers.ts";

type Json = Record<string, unknown>;
const GOOD = "sk-good-inventory-key-000000001";
const GOOD_2 = "sk-good-inventory-key-000000002";

async function exportDoc(gw: Parameters<typeof dashboard>[0]): Promise<{ status: number; doc: Json }> {
  const response = await fetch(`${gw.url}/dashboard/api/inventory/export?include_secrets=true`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  return { status: response.status, doc: await response.json() };
}

Deno.test("Add Keys files one key per line with per-key results; export then import round-trips the keys", async () => {
  const upstream = await startKeyAwareUpstream([GOOD, GOOD_2]);
  const a = await startInventoryGateway(inventoryYaml(upstream.url));
  const b = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    const added = await dashboard(a, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: `${GOOD}\n\n${GOOD_2}\nshort\n${GOOD}\n`, provider: "p", label: "team" },
    });
    assertEquals(added.status, 201);
    const results = added.body.results as Json[];
    assertEquals(results.map((r) => r.status), ["registered", "registered", "rejected", "exists"]);
    assertEquals(results[2].error, "key is shorter than 16 characters");
    assertEquals(added.body.summary, {
      registered: 2,
      updated: 0,
      existed: 1,
      rejected: 1,
      unidentified: 0,
      total: 4,
    });
    assert(!JSON.stringify(added.body).includes(GOOD), "results carry masked keys only");
    await a.management.inventory.checks.idle();

    const refused = await dashboard(a, "/dashboard/api/inventory/export");
    assertEquals([refused.status, (refused.body.error as Json).field], [400, "include_secrets"]);
    const exported = await exportDoc(a);
    assertEquals(exported.status, 200);
    const rows = exported.doc.keys as Json[];
    assertEquals(exported.doc.count, 3, "two added keys and the provider's mirrored key");
    const mine = rows.filter((r) => r.key_label === "team");
    assertEquals(mine.map((r) => [r.key_value, r.provider_id, r.status]).toSorted(), [
      [GOOD, "p", "active"],
      [GOOD_2, "p", "active"],
    ]);

    const imported = await dashboard(b, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exported.doc,
    });
    assertEquals(imported.status, 201);
    assertEquals((imported.body.summary as Json).registered, 2);
    assertEquals((imported.body.summary as Json).existed, 1, "b mirrored the same provider key already");
    await b.management.inventory.checks.idle();
    const again = (await exportDoc(b)).doc.keys as Json[];
    const pick = (r: Json) => [r.key_value, r.provider_id, r.key_label, r.status, r.is_valid, r.is_usable];
    assertEquals(
      again.filter((r) => r.key_label === "team").map(pick).toSorted(),
      mine.map(pick).toSorted(),
    );
    const second = await dashboard(b, "/dashboard/api/inventory/import", {
      method: "POST",
      body: exported.doc,
    });
    assertEquals([second.status, (second.body.summary as Json).existed], [200, 3], "import dedupes by hash");
  } finally {
    await a.stop();
    await b.stop();
    await upstream.close();
  }
});

Deno.test("Import JSON reads the origin's export rows and peer OAuth connections; unknown keys are unidentified until filed", async () => {
  const upstream = await startKeyAwareUpstream([]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url, "", ["openrouter"]));
  try {
    const origin = {
      exported_at: "2026-01-01T00:00:00Z",
      count: 1,
      keys: [{
        key_value: "sk-or-v1-0123456789abcdef0123456789",
        provider_id: "openrouter",
        key_label: "from origin",
        status: "active",
        is_valid: 1,
        credits_remaining: 12.5,
        metadata: { team: "x" },
      }],
    };
    const first = await dashboard(gw, "/dashboard/api/inventory/import", { method: "POST", body: origin });
    assertEquals((first.body.results as Json[]).map((r) => [r.status, r.provider_id, r.label]), [
      ["registered", "openrouter", "from origin"],
    ]);
    const peer = {
      providerConnections: [{
        provider: "codex",
        name: "me@example.com",
        accessToken: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.codex-access-token-123456",
        refreshToken: "rt_codex_refresh_token_abcdef123456",
        expiresAt: "2099-01-01T00:00:00Z",
      }],
    };
    const oauth = await dashboard(gw, "/dashboard/api/inventory/import", { method: "POST", body: peer });
    const item = (oauth.body.results as Json[])[0];
    assertEquals([item.status, item.provider_id, item.label], ["registered", "codex", "me@example.com"]);
    assert(String(item.key_masked).startsWith("oauth:"), "an OAuth blob is shown by its masked access token");
    assert(!JSON.stringify(oauth.body).includes("rt_codex_refresh_token"), "no token in the answer");
    const again = await dashboard(gw, "/dashboard/api/inventory/import", { method: "POST", body: peer });
    assertEquals((again.body.results as Json[])[0].status, "exists", "the same blob hashes alike");

    const unknown = await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: "zq8-unknown-shape-key-77777777" },
    });
    assertEquals((unknown.body.results as Json[])[0].status, "unidentified");
    const filed = await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: "zq8-unknown-shape-key-77777777", provider: "p" },
    });
    assertEquals((filed.body.results as Json[])[0].status, "updated");
    const bad = await dashboard(gw, "/dashboard/api/inventory/import", {
      method: "POST",
      body: { nothing: 1 },
    });
    assertEquals([bad.status, (bad.body.error as Json).field], [400, "file"]);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("push: a key whose provider cannot be told is rejected; submissions are rate limited per client", async () => {
  const upstream = await startKeyAwareUpstream([]);
  const gw = await startInventoryGateway(
    inventoryYaml(upstream.url, "  push_rate_limit: 3\n  push_rate_window_s: 3600\n", ["groq"]),
  );
  try {
    const unknown = await push(gw, { key: "zq8-unknown-shape-key-88888888" });
    assertEquals((unknown.body.results as Json[])[0].error, "Cannot detect provider. Pass provider field.");
    const detected = await push(gw, { keys: [{ key: "gsk_0123456789abcdefghijklmnop" }] });
    assertEquals(
      (detected.body.results as Json[])[0].provider_id,
      "groq",
      "detected from the key's prefix alone",
    );
    const limited = await fetch(`${gw.url}/dashboard/api/inventory/push`, {
      method: "POST",
      headers: { authorization: "Bearer push-token-inventory-test", "content-type": "application/json" },
      body: JSON.stringify({
        keys: [{ key: "gsk_1123456789abcdefghijklmnop" }, { key: "gsk_2123456789abcdefghijklmnop" }],
      }),
    });
    assertEquals(limited.status, 429);
    assert(Number(limited.headers.get("retry-after")) > 0);
    await limited.body?.cancel();
    // Pushes bypass the dashboard's sign-in but not the audit log: one row each, counts and never the keys.
    const audit = await dashboard(gw, "/dashboard/api/audit?action=inventory.push");
    const rows = audit.body.entries as Json[];
    assertEquals(rows.map((r) => [r.actor, r.actor_kind, r.target]), [
      ["push:unnamed", "system", "inventory"],
      ["push:unnamed", "system", "inventory"],
    ]);
    assertEquals(JSON.parse(rows[0].after as string).request.keys, 1);
    const logged = JSON.stringify(rows);
    assert(
      !logged.includes("gsk_0123456789") && !logged.includes("zq8-unknown"),
      "no pushed key in the audit log",
    );
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("Add Keys with identify: a key no prefix tells is tried against the configured providers and filed where it works", async () => {
  const unknown = "zq8-unknown-shape-key-55555555";
  const upstream = await startKeyAwareUpstream([unknown]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    const plain = await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: { text: unknown },
    });
    assertEquals((plain.body.results as Json[])[0].status, "unidentified");
    await gw.management.inventory.checks.idle();
    assertEquals(upstream.calls.filter((c) => c.endsWith(unknown)).length, 0, "never sent anywhere unasked");
    const id = (plain.body.results as Json[])[0].id as string;
    const asked = await dashboard(gw, `/dashboard/api/inventory/keys/${id}/identify`, { method: "POST" });
    assertEquals(asked.status, 200);
    await gw.management.inventory.checks.idle();
    const detail = await dashboard(gw, `/dashboard/api/inventory/keys/${id}`);
    const key = detail.body.key as Json;
    assertEquals([key.provider_id, key.status, key.routable], ["p", "active", true]);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
