/**
 * The governance repositories (issue 27) against both databases, like repository_contract_test.ts: key
 * groups, key limits / expiry / rotation / last use / unique names, budgets over periods and scopes with
 * alerts, the append-only audit log with redaction and retention, and the shared rate-limit counts.
 */
import { DuplicateNameError, openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const NOW = 1_764_000_000_000;
const box = new SecretBox(new Uint8Array(32).fill(9));

function newKey(
  store: Store,
  name: string,
  extra: Parameters<Store["keys"]["create"]>[0] extends infer T ? Partial<T> : never = {},
) {
  return store.keys.create({
    name,
    keyHash: `hash-${name}-${Math.random()}`,
    prefix: "sk-gw-x",
    canLogin: true,
    allowedModels: [],
    ...extra,
  }, NOW);
}

const checks: Record<string, (store: Store) => void> = {
  "key groups: create, unique names, update limits and allowlist, delete leaves keys ungrouped"(store) {
    const ops = store.keyGroups.create({ name: "ops", limits: { rpm: 60 }, allowedModels: ["p/*"] }, NOW);
    assertEquals(ops.limits, { rpm: 60, tpm: null, maxParallel: null });
    assertEquals(ops.allowedModels, ["p/*"]);
    assertThrows(() => store.keyGroups.create({ name: "ops" }, NOW), DuplicateNameError);
    const dev = store.keyGroups.create({ name: "dev" }, NOW);
    assertThrows(() => store.keyGroups.update(dev.id, { name: "ops" }, NOW), DuplicateNameError);
    const updated = store.keyGroups.update(ops.id, { limits: { tpm: 1000, rpm: null } }, NOW + 1);
    assertEquals(updated?.limits, { rpm: null, tpm: 1000, maxParallel: null });
    assertEquals(updated?.allowedModels, ["p/*"], "an update without models keeps them");
    assertEquals(store.keyGroups.list().map((g) => g.name), ["dev", "ops"]);
    assertEquals(store.keyGroups.findByName("ops")?.id, ops.id);
    const key = newKey(store, "member", { groupId: ops.id });
    store.budgets.upsert(
      { scope: { kind: "group", groupId: ops.id }, period: "week", limit: 5, warnPct: 80 },
      NOW,
    );
    assertEquals(store.keyGroups.delete(ops.id), true);
    assertEquals(store.keyGroups.delete(ops.id), false);
    assertEquals(store.keys.get(key.id)?.groupId, null);
    assertEquals(store.budgets.listAll().length, 0, "a group's budgets go with it");
  },
  "api keys: limits, group, expiry, rotation with grace, last use, unique active names"(store) {
    const group = store.keyGroups.create({ name: "team" }, NOW);
    const key = newKey(store, "ci", {
      groupId: group.id,
      limits: { rpm: 10, maxParallel: 2 },
      expiresAt: NOW + 5,
    });
    assertEquals(key.limits, { rpm: 10, tpm: null, maxParallel: 2 });
    assertEquals([key.groupId, key.expiresAt, key.lastUsedAt], [group.id, NOW + 5, null]);
    assertThrows(
      () => newKey(store, "ci"),
      DuplicateNameError,
      'an active API key named "ci" already exists',
    );
    const other = newKey(store, "other");
    assertThrows(() => store.keys.update(other.id, { name: "ci" }, NOW), DuplicateNameError);
    const changed = store.keys.update(key.id, {
      limits: { tpm: 500, rpm: null },
      expiresAt: null,
      groupId: null,
    }, NOW);
    assertEquals(changed?.limits, { rpm: null, tpm: 500, maxParallel: 2 });
    assertEquals([changed?.expiresAt, changed?.groupId], [null, null]);
    const rotated = store.keys.rotate(key.id, {
      keyHash: "new-hash",
      prefix: "sk-gw-n",
      graceUntil: NOW + 60_000,
    }, NOW);
    assertEquals([rotated?.keyHash, rotated?.previousKeyHash, rotated?.previousValidUntil], [
      "new-hash",
      key.keyHash,
      NOW + 60_000,
    ]);
    assertEquals(rotated?.limits, changed?.limits, "a rotation keeps the settings");
    store.keys.touchLastUsed([{ id: key.id, at: NOW + 10 }, { id: 9999, at: NOW }]);
    store.keys.touchLastUsed([{ id: key.id, at: NOW + 5 }]);
    assertEquals(store.keys.get(key.id)?.lastUsedAt, NOW + 10, "never moves backwards");
    assertEquals(store.keys.list().find((k) => k.id === key.id)?.lastUsedAt, NOW + 10);
    const generation = store.cluster.configGeneration();
    store.keys.touchLastUsed([{ id: key.id, at: NOW + 20 }]);
    assertEquals(store.cluster.configGeneration(), generation, "last use is not a configuration change");
    store.keys.revoke(key.id, NOW);
    assertEquals(store.keys.rotate(key.id, { keyHash: "x", prefix: "x", graceUntil: NOW }, NOW), undefined);
    const again = newKey(store, "ci");
    assertEquals(
      store.keys.findByName("ci")?.id,
      again.id,
      "a revoked key's name is free; the active one is found",
    );
  },
  "budgets: periods and scopes side by side, the daily methods see only daily key/global rows, alerts once"(
    store,
  ) {
    const key = newKey(store, "k");
    const group = store.keyGroups.create({ name: "g" }, NOW);
    store.budgets.set(null, 10, 80, NOW);
    store.budgets.set(key.id, 2, 50, NOW);
    const weekly = store.budgets.upsert({
      scope: { kind: "key", keyId: key.id },
      period: "week",
      limit: 7,
      warnPct: 90,
      webhook: { url: "http://127.0.0.1:9/hook", secret: "whsec-abc" },
    }, NOW);
    store.budgets.upsert({
      scope: { kind: "group", groupId: group.id },
      period: "month",
      limit: 100,
      warnPct: 80,
    }, NOW);
    store.budgets.upsert({
      scope: { kind: "global" },
      period: "rolling",
      rollingMs: 5 * 3_600_000,
      limit: 3,
      warnPct: 80,
      hardStop: false,
    }, NOW);
    const replaced = store.budgets.upsert({
      scope: { kind: "key", keyId: key.id },
      period: "week",
      limit: 8,
      warnPct: 90,
      webhook: weekly.webhook,
    }, NOW + 1);
    assertEquals(replaced.id, weekly.id, "same scope and period: replaced");
    assertEquals(store.budgets.list().map((b) => [b.keyId, b.dailyLimit]), [[null, 10], [key.id, 2]]);
    assertEquals(store.budgets.forScope(null)?.dailyLimit, 10);
    assertEquals(store.budgets.forScope(key.id)?.dailyLimit, 2);
    const all = store.budgets.listAll();
    assertEquals(all.map((b) => [b.scope.kind, b.period, b.rollingMs, b.limit, b.hardStop]), [
      ["global", "day", null, 10, true],
      ["global", "rolling", 18_000_000, 3, false],
      ["group", "month", null, 100, true],
      ["key", "day", null, 2, true],
      ["key", "week", null, 8, true],
    ]);
    assertEquals(all[4].webhook, { url: "http://127.0.0.1:9/hook", secret: "whsec-abc" });
    const raw = store.db.prepare("SELECT webhook_secret FROM budgets WHERE id = ?").get(weekly.id) as {
      webhook_secret: string;
    };
    assert(raw.webhook_secret.startsWith("enc:v1:"), "the webhook secret is sealed at rest");
    assertThrows(() =>
      store.budgets.upsert({ scope: { kind: "global" }, period: "rolling", limit: 1, warnPct: 80 }, NOW)
    );
    store.budgets.deleteScope(key.id);
    assertEquals(store.budgets.listAll().filter((b) => b.scope.kind === "key").map((b) => b.period), [
      "week",
    ]);
    const alert = {
      budgetId: weekly.id,
      windowStart: NOW - 1000,
      level: "warning" as const,
      spent: 7.2,
      limit: 8,
      createdAt: NOW,
    };
    assertEquals(store.budgets.claimAlert(alert), true);
    assertEquals(store.budgets.claimAlert({ ...alert, createdAt: NOW + 1 }), false, "one process wins");
    assertEquals(store.budgets.claimAlert({ ...alert, level: "exceeded" }), true);
    assertEquals(store.budgets.alerts(NOW).map((a) => a.level).sort(), ["exceeded", "warning"]);
    assertEquals(store.budgets.pruneAlerts(NOW + 1), 2);
  },
  "audit log: redacts on the way in, filters, pages, refuses updates, retention prunes"(store) {
    store.audit.append([
      {
        ts: NOW,
        actor: "admin",
        actorKind: "key",
        address: "10.0.0.1",
        action: "key.create",
        target: "key:1",
        after: { name: "ci", key: "sk-gateway-abcdefghijklmnop", keyHash: "ff00", rpm: 60 },
      },
      {
        ts: NOW + 1,
        actor: "admin",
        actorKind: "key",
        address: "10.0.0.1",
        action: "provider.update",
        target: "provider:a",
        before: { api_key: "sk-live-1234567890abc" },
        after: { api_key: "", base_url: "http://x" },
      },
      { ts: NOW + 2, actor: "root", actorKind: "cli", address: "", action: "key.revoke", target: "key:1" },
      {
        ts: NOW + 3,
        actor: "eve",
        actorKind: "sso",
        address: "10.0.0.9",
        action: "signin.failed",
        target: "",
      },
    ]);
    const rows = store.audit.list();
    assertEquals(rows.map((r) => r.action), ["signin.failed", "key.revoke", "provider.update", "key.create"]);
    assertEquals(JSON.parse(rows[3].after!), {
      name: "ci",
      key: "[redacted]",
      keyHash: "[redacted]",
      rpm: 60,
    });
    assertEquals(JSON.parse(rows[2].before!), { api_key: "[redacted]" });
    assertEquals(
      JSON.parse(rows[2].after!),
      { api_key: "", base_url: "http://x" },
      "an empty secret says none is set",
    );
    assertEquals([rows[1].before, rows[1].after, rows[1].actorKind], [null, null, "cli"]);
    assertEquals(store.audit.list({ action: "key." }).map((r) => r.action), ["key.revoke", "key.create"]);
    assertEquals(store.audit.list({ actor: "admin", since: NOW + 1 }).map((r) => r.target), ["provider:a"]);
    assertEquals(store.audit.list({ limit: 2 }).length, 2);
    assertEquals(store.audit.list({ beforeId: rows[1].id }).map((r) => r.id), [rows[2].id, rows[3].id]);
    assertThrows(() => store.db.prepare("UPDATE audit_log SET actor = 'x'").run(), Error, "append-only");
    store.audit.prune(NOW + 2);
    assertEquals(store.audit.list().length, 2);
  },
  "rate counts: publish replaces a process's row, others' rows since a time, leave and prune"(store) {
    const row = (origin: string, requests: number, at: number) => ({
      scope: "key:1",
      origin,
      requests,
      tokens: requests * 100,
      inFlight: 1,
      shareRequests: 2.5,
      shareTokens: 250,
      shareSlots: 0.5,
      levelRequests: 3.25,
      levelTokens: 120.5,
      updatedAt: at,
    });
    store.rateCounts.publish([row("a", 1, NOW), { ...row("a", 1, NOW), scope: "key:2" }]);
    store.rateCounts.publish([row("b", 3, NOW + 10)]);
    store.rateCounts.publish([row("a", 5, NOW + 20)]);
    assertEquals(store.rateCounts.others("b", NOW + 15), [row("a", 5, NOW + 20)]);
    assertEquals(store.rateCounts.others("a", 0), [row("b", 3, NOW + 10)]);
    assertEquals(store.rateCounts.others("c", 0).length, 3);
    store.rateCounts.leave("b");
    assertEquals(store.rateCounts.others("a", 0), []);
    assertEquals(store.rateCounts.prune(NOW + 1), 1, "key:2 of a was idle");
    assertEquals(store.rateCounts.others("z", 0).map((r) => r.scope), ["key:1"]);
  },
};

for (const [name, check] of Object.entries(checks)) {
  Deno.test(`governance contract on SQLite: ${name}`, () => {
    const store = new Store(openDatabase(":memory:"), box);
    try {
      check(store);
    } finally {
      store.close();
    }
  });
  Deno.test({
    name: `governance contract on PostgreSQL: ${name}`,
    ignore: postgresSkip(`governance contract: ${name}`),
    async fn() {
      const url = await (await testPostgres()).newDatabase();
      const dir = await Deno.makeTempDir();
      const store = Store.openWithSecret(url, `${dir}/secret.key`, undefined);
      try {
        check(store);
      } finally {
        store.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
