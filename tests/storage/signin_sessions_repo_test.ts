/**
 * SigninSessionsRepo's contract, on SQLite and on PostgreSQL (a throwaway cluster; ignored with the reason
 * where the server binaries are missing): one open sign-in per provider, the open limit, sealed secrets,
 * one claim per sign-in, conditional ends, and the sweep.
 */
import {
  openDatabase,
  SecretBox,
  type SigninRecord,
  SigninSessionsRepo,
  type SqlDatabase,
  Store,
} from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";

const NOW = 1_800_000_000_000;
const box = new SecretBox(new Uint8Array(32).fill(5));
const DEVICE_CODE = "device-code-that-must-stay-sealed";
const VERIFIER = "pkce-verifier-that-must-stay-sealed-0123456789";
const STATE = "pkce-state-sealed-abcdef";

function device(id: string, providerId = "copilot", overrides: Partial<SigninRecord> = {}): SigninRecord {
  return {
    id,
    owner: "session:abc",
    providerId,
    flow: "device",
    status: "pending",
    message: null,
    createdAt: NOW,
    expiresAt: NOW + 900_000,
    finishedAt: null,
    device: { userCode: "WDJB-MJHT", verificationUri: "https://example.test/device", intervalS: 5 },
    ...overrides,
  };
}

function pkce(id: string, providerId = "claude"): SigninRecord {
  return {
    id,
    owner: "key:1",
    providerId,
    flow: "pkce",
    status: "pending",
    message: null,
    createdAt: NOW,
    expiresAt: NOW + 600_000,
    finishedAt: null,
    pkce: { authorizeUrl: "https://example.test/authorize?x=1", redirectUri: "http://localhost/cb" },
  };
}

const deviceSecrets = {
  device: { deviceCode: DEVICE_CODE, client: { clientId: "c", clientSecret: "s3cr3t" } },
};
const pkceSecrets = { pkce: { verifier: VERIFIER, state: STATE } };

/** Each check takes a fresh repository over its own database. */
const checks: Record<string, (repo: SigninSessionsRepo, db: SqlDatabase) => void> = {
  "open stores the view fields and seals the secrets; get and secrets read them back"(repo, db) {
    assertEquals(repo.open(device("d1"), deviceSecrets, 32, "replaced"), true);
    assertEquals(repo.open(pkce("p1"), pkceSecrets, 32, "replaced"), true);
    assertEquals(repo.get("d1"), device("d1"));
    assertEquals(repo.get("p1"), pkce("p1"));
    assertEquals(repo.get("missing"), undefined);
    assertEquals(repo.secrets("d1"), deviceSecrets);
    assertEquals(repo.secrets("p1"), pkceSecrets);
    const raw = JSON.stringify(db.prepare("SELECT * FROM signin_sessions").all());
    for (const secret of [DEVICE_CODE, VERIFIER, STATE, "s3cr3t"]) assert(!raw.includes(secret), raw);
    const sealed = db.prepare("SELECT device_secret, pkce_secret FROM signin_sessions ORDER BY id").all() as {
      device_secret: string;
      pkce_secret: string;
    }[];
    assert(sealed[0].device_secret.startsWith("enc:v1:") && sealed[1].pkce_secret.startsWith("enc:v1:"));
  },
  "a new sign-in for a provider cancels its open one; the limit counts open ones of other providers"(repo) {
    repo.open(device("d1"), deviceSecrets, 2, "Replaced");
    assertEquals(repo.open(device("d2"), deviceSecrets, 2, "Replaced"), true);
    const old = repo.get("d1")!;
    assertEquals([old.status, old.message, old.finishedAt], ["cancelled", "Replaced", NOW]);
    assertEquals(repo.secrets("d1"), {}, "an ended sign-in keeps no secret");
    assertEquals(repo.countOpen(), 1);
    assertEquals(repo.countOpen("copilot"), 0, "its own open one is about to be replaced");
    assertEquals(repo.open(pkce("p1"), pkceSecrets, 2, "Replaced"), true);
    assertEquals(repo.open(pkce("p2", "gemini"), pkceSecrets, 2, "Replaced"), false, "two open already");
    assertEquals(repo.get("p2"), undefined);
    assertEquals(repo.get("d2")!.status, "pending", "a refused start changes nothing");
  },
  "the database keeps one pending sign-in per provider even without the repository's cancel"(repo, db) {
    repo.open(device("d1"), deviceSecrets, 32, "Replaced");
    let refused = false;
    try {
      db.prepare(
        `INSERT INTO signin_sessions (id, owner, provider_id, flow, status, created_at, expires_at)
         VALUES ('d2', 'o', 'copilot', 'device', 'pending', 1, 2)`,
      ).run();
    } catch {
      refused = true;
    }
    assert(refused, "the unique index refused a second pending sign-in for the provider");
  },
  "claim succeeds once and not after expiry; finish is conditional on the state it leaves"(repo) {
    repo.open(pkce("p1"), pkceSecrets, 32, "Replaced");
    assertEquals(repo.claim("p1", NOW + 1), true);
    assertEquals(repo.claim("p1", NOW + 1), false, "a second claim fails");
    assertEquals(repo.get("p1")!.status, "completing");
    assertEquals(repo.countOpen(), 1, "a sign-in being completed is still open");
    assertEquals(
      repo.finish("p1", "pending", "cancelled", "x", NOW + 2),
      false,
      "a claimed one is not cancelled",
    );
    assertEquals(repo.finish("p1", "completing", "succeeded", null, NOW + 3), true);
    assertEquals(repo.finish("p1", "completing", "failed", "late", NOW + 4), false);
    const done = repo.get("p1")!;
    assertEquals([done.status, done.message, done.finishedAt], ["succeeded", null, NOW + 3]);
    repo.open(pkce("p2"), pkceSecrets, 32, "Replaced");
    assertEquals(repo.claim("p2", NOW + 600_000), false, "expired");
  },
  "progress updates a pending device sign-in's interval and note, and reports once it ended"(repo) {
    repo.open(device("d1"), deviceSecrets, 32, "Replaced");
    assertEquals(repo.progress("d1", 10, "slow down"), true);
    assertEquals([repo.get("d1")!.device?.intervalS, repo.get("d1")!.message], [10, "slow down"]);
    repo.finish("d1", "pending", "cancelled", "The sign-in was cancelled", NOW + 1);
    assertEquals(repo.progress("d1", 15, null), false);
    assertEquals(repo.get("d1")!.device?.intervalS, 10);
  },
  "sweep expires pending ones, fails stale claims and forgets ended ones"(repo) {
    repo.open(device("due", "a", { expiresAt: NOW + 10 }), deviceSecrets, 32, "R");
    repo.open(device("live", "b"), deviceSecrets, 32, "R");
    repo.open(device("stuck", "c", { expiresAt: NOW + 10 }), deviceSecrets, 32, "R");
    repo.claim("stuck", NOW);
    repo.open(device("old", "d"), deviceSecrets, 32, "R");
    repo.finish("old", "pending", "failed", "denied", NOW - 700_000);
    repo.sweep(NOW + 20, 60_000, NOW - 600_000, "expired now");
    assertEquals([repo.get("due")!.status, repo.get("due")!.message], ["expired", "expired now"]);
    assertEquals(repo.secrets("due"), {});
    assertEquals(repo.get("live")!.status, "pending");
    assertEquals(repo.get("stuck")!.status, "completing", "within its grace");
    assertEquals(repo.get("old"), undefined, "forgotten");
    repo.sweep(NOW + 70_000, 60_000, NOW - 600_000, "expired now");
    assertEquals(repo.get("stuck")!.status, "failed");
  },
};

for (const [name, check] of Object.entries(checks)) {
  Deno.test(`SigninSessionsRepo on SQLite: ${name}`, () => {
    const db = openDatabase(":memory:");
    try {
      check(new SigninSessionsRepo(db, box), db);
    } finally {
      db.close();
    }
  });
  Deno.test({
    name: `SigninSessionsRepo on PostgreSQL: ${name}`,
    ignore: postgresSkip(`SigninSessionsRepo: ${name}`),
    async fn() {
      const dir = await Deno.makeTempDir();
      const store = Store.openWithSecret(
        await (await testPostgres()).newDatabase(),
        `${dir}/secret.key`,
        undefined,
      );
      try {
        check(new SigninSessionsRepo(store.db, box), store.db);
      } finally {
        store.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

Deno.test({
  name:
    "SigninSessionsRepo on PostgreSQL: a start racing another instance's uncommitted one waits, then replaces it",
  ignore: postgresSkip("SigninSessionsRepo: concurrent open"),
  async fn() {
    const dir = await Deno.makeTempDir();
    const url = new URL(await (await testPostgres()).newDatabase());
    const store = Store.openWithSecret(url.toString(), `${dir}/secret.key`, undefined);
    const versions = [...Deno.readDirSync("/usr/lib/postgresql")].map((e) => e.name).sort();
    // Another instance (psql, its own process) opens a sign-in for the provider and commits 600 ms later.
    const other = new Deno.Command(`/usr/lib/postgresql/${versions.at(-1)}/bin/psql`, {
      args: [
        "-h",
        url.hostname,
        "-p",
        url.port,
        "-U",
        "gw",
        "-d",
        url.pathname.slice(1),
        "-v",
        "ON_ERROR_STOP=1",
        "-c",
        `BEGIN; INSERT INTO signin_sessions (id, owner, provider_id, flow, status, created_at, expires_at)
         VALUES ('other', 'o', 'copilot', 'device', 'pending', 1, ${NOW + 900_000});
         SELECT pg_sleep(0.6); COMMIT;`,
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      const repo = new SigninSessionsRepo(store.db, box);
      await waitFor(() => {
        const locks = store.db.prepare(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(0.6)%' AND pid <> pg_backend_pid()",
        ).get() as { n: number };
        return Number(locks.n) > 0;
      }, { what: "the other instance's open transaction", intervalMs: 20 });
      // Its insert is not visible yet; ours waits on the unique index, fails when it commits, and retries.
      assertEquals(repo.open(device("ours"), deviceSecrets, 32, "Replaced by a newer sign-in"), true);
      assertEquals((await other.output()).success, true);
      const open = store.db.prepare("SELECT id FROM signin_sessions WHERE status = 'pending'").all();
      assertEquals(open, [{ id: "ours" }], "one open sign-in for the provider");
      assertEquals(repo.get("other")!.status, "cancelled");
    } finally {
      store.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
