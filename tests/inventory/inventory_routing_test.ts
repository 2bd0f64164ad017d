import { assert, assertEquals } from "../helpers/assert.ts";
import {
  chat,
  dashboard,
  inventoryYaml,
  push,
  startInventoryGateway,
  startKeyAwareUpstream,
} from "./inventory_helpers.ts";

const GOOD = "sk-good-inventory-key-000000001";
const GOOD_2 = "sk-good-inventory-key-000000002";
const BAD = "sk-bad-inventory-key-0000000099";

type Json = Record<string, unknown>;
type KeyRow = { id: string; status: string; routable: boolean; provider_id: string; masked: string };

async function keysOf(gw: Parameters<typeof dashboard>[0], query = ""): Promise<KeyRow[]> {
  const r = await dashboard(gw, `/dashboard/api/v2/state/inventory-keys?limit=200${query}`);
  return (r.body.data as Json).keys as KeyRow[];
}

Deno.test("a pushed key is checked, becomes routable and carries traffic under its own account id", async () => {
  // The provider's own key is not one the upstream accepts: only the pushed key can answer.
  const upstream = await startKeyAwareUpstream([GOOD]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    const pushed = await push(gw, { keys: [{ key: GOOD, provider: "p", label: "pool-1" }] });
    assertEquals([pushed.status, (pushed.body.summary as Json).registered], [201, 1]);
    const id = (pushed.body.results as Json[])[0].id as string;
    await gw.management.inventory.checks.idle();
    const keys = await keysOf(gw);
    const key = keys.find((k) => k.id === id)!;
    assertEquals([key.status, key.routable], ["active", true]);
    const mirror = keys.find((k) => k.id !== id)!;
    assertEquals(mirror.status, "invalid", "the provider's own key was mirrored and checked like any other");
    const detail = await dashboard(gw, `/dashboard/api/inventory/keys/${id}`);
    assertEquals((detail.body as Json).models, ["m1"]);
    assertEquals((detail.body.key as Json).rate_limit_rpm, 500);
    assert(((detail.body.history as Json[]).length) >= 2, "one history row when added, one per check");

    const probes = upstream.chatCallsWith(GOOD);
    assertEquals(probes, 1, "the check's 1-token usability probe");
    for (let i = 0; i < 3; i++) assertEquals(await chat(gw), 200);
    assertEquals(upstream.chatCallsWith(GOOD), probes + 3);
    assertEquals(upstream.chatCallsWith("upstream-key-acct-a"), 0, "the invalid own key is out of routing");
    const routing = (await dashboard(gw, "/dashboard/api/v2/state/routing")).body.data as Json;
    const shown = (routing.prefixes as { prefix: string; accounts: { id: string }[] }[])
      .find((p) => p.prefix === "p")!.accounts.map((a) => a.id);
    assert(shown.includes(`acct-a::${id}`), "the Routing screen lists the key's account");
    gw.runtime.writer.flush();
    const rows = gw.runtime.control.store.db.prepare(
      "SELECT provider_id, account_id, status FROM usage ORDER BY id",
    ).all() as { provider_id: string; account_id: string; status: number }[];
    assertEquals(rows.map((r) => [r.provider_id, r.account_id, r.status]), [
      ["acct-a", `acct-a::${id}`, 200],
      ["acct-a", `acct-a::${id}`, 200],
      ["acct-a", `acct-a::${id}`, 200],
    ]);
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("an invalid key never carries traffic; archive takes a key out of routing at once", async () => {
  const upstream = await startKeyAwareUpstream([GOOD, GOOD_2, "upstream-key-acct-a"]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    const pushed = await push(gw, {
      keys: [{ key: GOOD, provider: "p" }, { key: GOOD_2, provider: "p" }, { key: BAD, provider: "p" }],
    });
    const ids = (pushed.body.results as Json[]).map((r) => r.id as string);
    await gw.management.inventory.checks.idle();
    const byId = new Map((await keysOf(gw)).map((k) => [k.id, k]));
    assertEquals(ids.map((id) => byId.get(id)!.status), ["active", "active", "invalid"]);
    const accounts = gw.runtime.table.accountsByPrefix.get("p")!.map((a) => a.id);
    const mirror = [...byId.values()].find((k) => !ids.includes(k.id))!;
    assertEquals(mirror.status, "active");
    assertEquals(
      accounts.toSorted(),
      [`acct-a::${ids[0]}`, `acct-a::${ids[1]}`, `acct-a::${mirror.id}`].toSorted(),
      "two pushed keys and the provider's own key as its inventory copy; never the invalid key",
    );

    for (let i = 0; i < 6; i++) assertEquals(await chat(gw), 200);
    assertEquals(upstream.chatCallsWith(BAD), 0);
    assert(upstream.chatCallsWith(GOOD) > 0, "round robin reaches the first key");

    const archived = await dashboard(gw, `/dashboard/api/inventory/keys/${ids[0]}/archive`, {
      method: "POST",
    });
    assertEquals(archived.status, 200);
    const before = upstream.chatCallsWith(GOOD);
    for (let i = 0; i < 6; i++) assertEquals(await chat(gw), 200);
    assertEquals(upstream.chatCallsWith(GOOD), before, "no request reached the archived key");
    assertEquals((await keysOf(gw)).some((k) => k.id === ids[0]), false, "archived keys leave the list");
    assertEquals((await keysOf(gw, "&archived=true")).map((k) => k.id), [ids[0]]);

    await dashboard(gw, `/dashboard/api/inventory/keys/${ids[0]}/restore`, { method: "POST" });
    await gw.management.inventory.checks.idle();
    for (let i = 0; i < 6; i++) assertEquals(await chat(gw), 200);
    assert(upstream.chatCallsWith(GOOD) > before, "a restored key routes again");

    const removed = await dashboard(gw, `/dashboard/api/inventory/keys/${ids[1]}`, { method: "DELETE" });
    assertEquals(removed.status, 200);
    assert(
      !gw.runtime.table.accountsByPrefix.get("p")!.some((a) => a.id.endsWith(ids[1])),
      "deleted: gone at once",
    );
  } finally {
    await gw.stop();
    await upstream.close();
  }
});

Deno.test("no inventory key appears in plaintext in any dashboard answer, the request logs or the database files", async () => {
  const upstream = await startKeyAwareUpstream([GOOD]);
  const gw = await startInventoryGateway(inventoryYaml(upstream.url));
  try {
    await dashboard(gw, "/dashboard/api/settings", {
      method: "POST",
      body: { server_request_logging: true },
    });
    const pushed = await push(gw, { keys: [{ key: GOOD, provider: "p" }, { key: BAD, provider: "p" }] });
    const added = await dashboard(gw, "/dashboard/api/inventory/keys", {
      method: "POST",
      body: {
        text: '{"access_token":"oauth-access-secret-123456","refresh_token":"oauth-refresh-secret-7890"}',
      },
    });
    await gw.management.inventory.checks.idle();
    assertEquals(await chat(gw), 200);
    const secrets = [GOOD, BAD, "oauth-access-secret-123456", "oauth-refresh-secret-7890"];
    const answers = [JSON.stringify(pushed.body), JSON.stringify(added.body)];
    for (
      const section of [
        "inventory",
        "inventory-keys",
        "overview",
        "routing",
        "providers",
        "request-logs",
        "analytics",
      ]
    ) {
      answers.push(JSON.stringify((await dashboard(gw, `/dashboard/api/v2/state/${section}`)).body));
    }
    for (const id of (pushed.body.results as Json[]).map((r) => r.id as string)) {
      answers.push(JSON.stringify((await dashboard(gw, `/dashboard/api/inventory/keys/${id}`)).body));
    }
    for (const answer of answers) {
      for (const secret of secrets) {
        assert(!answer.includes(secret), `an answer holds ${secret.slice(0, 8)}…`);
      }
    }
    gw.runtime.writer.flush();
    const db = gw.runtime.control.store.db;
    const logged = db.prepare("SELECT count(*) AS n FROM request_logs").get() as { n: number };
    assert(Number(logged.n) > 0, "the request was logged (and its log scanned below)");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const files = [gw.config.paths.dbPath, `${gw.config.paths.dbPath}-wal`].flatMap((path) => {
      try {
        return [new TextDecoder("latin1").decode(Deno.readFileSync(path))];
      } catch {
        return [];
      }
    });
    assert(files.length > 0);
    for (const bytes of files) {
      for (const secret of secrets) {
        assert(!bytes.includes(secret), `the database holds ${secret.slice(0, 8)}…`);
      }
    }
  } finally {
    await gw.stop();
    await upstream.close();
  }
});
