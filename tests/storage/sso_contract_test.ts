/**
 * The single sign-on storage (migration 0021) on SQLite and on PostgreSQL (a throwaway cluster; ignored with
 * the reason where the server binaries are missing): pending logins are sealed, taken once and swept when
 * expired; dashboard sessions carry the provider account and role of a single sign-on.
 */
import { openDatabase, SecretBox, type SsoPendingLogin, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const NOW = 1_800_000_000_000;
const box = new SecretBox(new Uint8Array(32).fill(7));
const VERIFIER = "pkce-verifier-that-must-stay-sealed-0123456789abcdef";
const NONCE = "nonce-that-must-stay-sealed-xyz";

function pending(stateHash: string, createdAt = NOW, ttl = 600_000): SsoPendingLogin {
  return {
    stateHash,
    bindingHash: `binding-${stateHash}`,
    redirectUri: "https://gw.example.com/dashboard/sso/callback",
    next: "/dashboard/ui#/usage",
    createdAt,
    expiresAt: createdAt + ttl,
  };
}

const checks: Record<string, (store: Store) => void> = {
  "a pending login is stored with its secrets sealed and read back once"(store) {
    store.ssoLogins.put(pending("s1"), { verifier: VERIFIER, nonce: NONCE });
    const raw = JSON.stringify(store.db.prepare("SELECT * FROM sso_pending_logins").all());
    assert(!raw.includes(VERIFIER) && !raw.includes(NONCE), raw);
    assert(raw.includes("enc:v1:"), "the secrets column is sealed");
    assertEquals(store.ssoLogins.take("s1"), {
      login: pending("s1"),
      secrets: { verifier: VERIFIER, nonce: NONCE },
    });
    assertEquals(store.ssoLogins.take("s1"), undefined, "a state is single use");
    assertEquals(store.ssoLogins.take("unknown"), undefined);
  },
  "storing a login sweeps expired ones; an expired one not yet swept is still returned to say so"(store) {
    store.ssoLogins.put(pending("old", NOW - 700_000), { verifier: "v", nonce: "n" });
    store.ssoLogins.put(pending("stale", NOW - 600_000 + 10), { verifier: "v", nonce: "n" });
    store.ssoLogins.put(pending("new"), { verifier: "v", nonce: "n" });
    assertEquals(store.ssoLogins.take("old"), undefined, "swept by the newer put");
    assertEquals(store.ssoLogins.take("stale")?.login.expiresAt, NOW + 10);
    assertEquals(store.ssoLogins.take("new")?.login.stateHash, "new");
  },
  "a dashboard session can belong to a single sign-on account; deleteSso ends only those"(store) {
    const sso = {
      issuer: "https://id.example.com",
      subject: "user-1",
      email: "ada@example.com",
      name: "Ada",
      role: "viewer" as const,
    };
    store.sessions.create({
      tokenHash: "t-sso",
      keyId: null,
      staticKeyHash: null,
      createdAt: NOW,
      expiresAt: NOW + 1000,
      sso,
    });
    store.sessions.create({
      tokenHash: "t-static",
      keyId: null,
      staticKeyHash: "static-hash",
      createdAt: NOW,
      expiresAt: NOW + 1000,
    });
    assertEquals(store.sessions.get("t-sso"), {
      tokenHash: "t-sso",
      keyId: null,
      staticKeyHash: null,
      createdAt: NOW,
      expiresAt: NOW + 1000,
      sso,
    });
    assertEquals(store.sessions.get("t-static")?.sso, undefined);
    store.db.prepare("UPDATE dashboard_sessions SET sso_role = 'root' WHERE token_hash = 't-sso'").run();
    assertEquals(store.sessions.get("t-sso")?.sso?.role, "viewer", "an unknown stored role reads as viewer");
    assertEquals(store.sessions.deleteSso(), 1);
    assertEquals(store.sessions.get("t-sso"), undefined);
    assert(store.sessions.get("t-static") !== undefined);
  },
};

for (const [name, check] of Object.entries(checks)) {
  Deno.test(`SSO storage on SQLite: ${name}`, () => {
    const store = new Store(openDatabase(":memory:"), box);
    try {
      check(store);
    } finally {
      store.close();
    }
  });
  Deno.test({
    name: `SSO storage on PostgreSQL: ${name}`,
    ignore: postgresSkip(`SSO storage: ${name}`),
    async fn() {
      const dir = await Deno.makeTempDir();
      const store = Store.openWithSecret(
        await (await testPostgres()).newDatabase(),
        `${dir}/secret.key`,
        undefined,
      );
      try {
        check(store);
      } finally {
        store.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
