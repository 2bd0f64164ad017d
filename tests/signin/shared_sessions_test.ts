/**
 * Two SigninService instances on one database, each with its own database handle, stand for two workers
 * (or two instances): a sign-in started on one is read, cancelled or completed on the other, as if the
 * gateway were one process. Run on a SQLite file and on PostgreSQL (each instance with its own bridge).
 */
import { GatewayError } from "../../src/model/mod.ts";
import { openDatabase, type SqlDatabase, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../helpers/assert.ts";
import { MOCK_ACCESS_TOKEN, type MockOAuth, startMockOAuth } from "../helpers/mock_oauth.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { signinOver, type TestSignin, visitAuthorize } from "./signin_helpers.ts";
import { holdsFalse, waitFor } from "../helpers/wait.ts";

const DEVICE_CODE = "mock-device-code-secret";

/** Two processes' services over one database, and a third handle to look at the rows. */
interface Pair {
  readonly a: TestSignin;
  readonly b: TestSignin;
  readonly raw: SqlDatabase;
  /** The SQLite files (database and WAL), to search their bytes; none on PostgreSQL. */
  readonly files: string[];
  close(): Promise<void>;
}

async function sqlitePair(mock: MockOAuth): Promise<Pair> {
  const dir = await Deno.makeTempDir({ prefix: "gateway-signin-shared-" });
  const path = `${dir}/gateway.db`;
  const handles = [openDatabase(path), openDatabase(path), openDatabase(path)];
  const [a, b] = [signinOver(mock, handles[0]), signinOver(mock, handles[1])];
  return {
    a,
    b,
    raw: handles[2],
    files: [path, `${path}-wal`],
    async close() {
      await Promise.all([a.signin.close(), b.signin.close()]);
      for (const h of handles) h.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function postgresPair(mock: MockOAuth): Promise<Pair> {
  const dir = await Deno.makeTempDir({ prefix: "gateway-signin-shared-" });
  const url = await (await testPostgres()).newDatabase();
  const stores = [0, 1, 2].map(() => Store.openWithSecret(url, `${dir}/secret.key`, undefined));
  const [a, b] = [signinOver(mock, stores[0].db), signinOver(mock, stores[1].db)];
  return {
    a,
    b,
    raw: stores[2].db,
    files: [],
    async close() {
      await Promise.all([a.signin.close(), b.signin.close()]);
      for (const s of stores) s.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const backends = [
  { name: "SQLite", open: sqlitePair, ignore: false },
  { name: "PostgreSQL", open: postgresPair, ignore: postgresSkip("two SigninServices on one database") },
];

const tokenExchanges = (mock: MockOAuth) => mock.requests.filter((r) => r.path === "/oauth/token").length;
const devicePolls = (mock: MockOAuth) =>
  mock.requests.filter((r) => r.path === "/login/oauth/access_token").length;

/** `promise`, or a failure naming `what` after 20 s (a poller that never stops would hang the test). */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within 20 s`)), 20_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  await waitFor(condition, { what });
}

for (const backend of backends) {
  const test = (name: string, fn: (mock: MockOAuth, pair: Pair) => Promise<void>) =>
    Deno.test({
      name: `two workers on ${backend.name}: ${name}`,
      ignore: backend.ignore,
      async fn() {
        await using mock = await startMockOAuth();
        const pair = await backend.open(mock);
        try {
          await fn(mock, pair);
        } finally {
          await pair.close();
        }
      },
    });

  test(
    "a device sign-in started on A is read on B, and B's cancel stops A's polling with nothing saved",
    async (mock, { a, b }) => {
      mock.deviceSteps("authorization_pending");
      const started = await a.signin.start("copilot", "owner-a");
      const seen = b.signin.get(started.id, "owner-a");
      assertEquals(seen, started, "B answers the same view");
      assertThrows(() => b.signin.get(started.id, "owner-b"), GatewayError, "does not exist");
      assertThrows(() => b.signin.cancel(started.id, "owner-b"), GatewayError, "does not exist");
      await until(() => devicePolls(mock) >= 2, "A polls the provider");
      assertEquals(b.signin.cancel(started.id, "owner-a").status, "cancelled");
      const ended = await within(a.signin.settled(started.id, "owner-a"), "A's polling stops");
      assertEquals([ended.status, ended.message], ["cancelled", "The sign-in was cancelled"]);
      const polls = devicePolls(mock);
      await holdsFalse(() => devicePolls(mock) > polls, 50, "a poll by A after its polling ended");
      assertEquals([a.saved, b.saved], [[], []]);
    },
  );

  test(
    "a device sign-in polled by A to success: B sees each change and the outcome; saved once",
    async (mock, { a, b }) => {
      mock.deviceSteps("authorization_pending", "slow_down", "ok");
      const started = await a.signin.start("copilot", "owner-a");
      // B does not poll the provider: it waits on the row A writes.
      const ended = await within(b.signin.settled(started.id, "owner-a"), "B learns the outcome");
      assertEquals(ended.status, "succeeded");
      assertEquals(ended.device?.interval_s, 6, "the slow_down A saw reached the row");
      assertEquals(a.saved, [{ id: "copilot", credential: { access_token: MOCK_ACCESS_TOKEN } }]);
      assertEquals(b.saved, []);
      assertEquals(a.signin.get(started.id, "owner-a").status, "succeeded");
    },
  );

  test(
    "a PKCE sign-in started on A is completed by a paste on B, which saves it once",
    async (mock, { a, b }) => {
      const started = await a.signin.start("copilot", "owner-a", "pkce");
      const redirect = await visitAuthorize(started.pkce!.authorize_url);
      await assertRejects(
        () => b.signin.submit(started.id, "owner-a", redirect.replace(/state=[^&]+/, "state=forged")),
        GatewayError,
        "state does not match",
      );
      assertEquals(a.signin.get(started.id, "owner-a").status, "pending", "a bad paste leaves it open");
      const done = await b.signin.submit(started.id, "owner-a", redirect);
      assertEquals(done.status, "succeeded");
      assertEquals(a.signin.get(started.id, "owner-a").status, "succeeded");
      assertEquals([a.saved.length, b.saved.length, tokenExchanges(mock)], [0, 1, 1]);
      await assertRejects(
        () => a.signin.submit(started.id, "owner-a", redirect),
        GatewayError,
        "already succeeded",
      );
    },
  );

  test("two pastes at once, on A and on B, exchange the code once and save once", async (mock, { a, b }) => {
    const started = await a.signin.start("copilot", "owner-a", "pkce");
    const redirect = await visitAuthorize(started.pkce!.authorize_url);
    const results = await Promise.allSettled([
      a.signin.submit(started.id, "owner-a", redirect),
      b.signin.submit(started.id, "owner-a", redirect),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    assertEquals([won.length, lost.length], [1, 1]);
    assert(lost[0].reason instanceof GatewayError && lost[0].reason.status === 409, String(lost[0].reason));
    assertEquals(lost[0].reason.message, "This sign-in is already being completed");
    assertEquals(tokenExchanges(mock), 1);
    assertEquals(a.saved.length + b.saved.length, 1);
    assertEquals(b.signin.get(started.id, "owner-a").status, "succeeded");
  });

  test(
    "a sign-in started on B replaces A's open one for the provider, and A stops polling it",
    async (mock, { a, b }) => {
      mock.deviceSteps("authorization_pending");
      const first = await a.signin.start("copilot", "owner-a");
      const second = await b.signin.start("copilot", "owner-a", "pkce");
      const ended = await within(a.signin.settled(first.id, "owner-a"), "A's polling stops");
      assertEquals([ended.status, ended.message], ["cancelled", "Replaced by a newer sign-in"]);
      assertEquals(a.signin.get(second.id, "owner-a").status, "pending");
      const polls = devicePolls(mock);
      await holdsFalse(() => devicePolls(mock) > polls, 50, "a poll by A after its polling ended");
    },
  );

  test("A shutting down cancels the sign-ins A polls; B reads why", async (mock, { a, b }) => {
    mock.deviceSteps("authorization_pending");
    const started = await a.signin.start("copilot", "owner-a");
    await a.signin.close();
    const seen = b.signin.get(started.id, "owner-a");
    assertEquals([seen.status, seen.message], ["cancelled", "The gateway that was polling it shut down"]);
    assertEquals([a.saved, b.saved], [[], []]);
  });

  test(
    "the database holds no device code or PKCE verifier in plaintext, and no view carries one",
    async (mock, { a, b, raw, files }) => {
      mock.deviceSteps("authorization_pending");
      const device = await a.signin.start("copilot", "owner-a");
      const pkce = await a.signin.start("other", "owner-a", "pkce");
      const verifier = a.repo.secrets(pkce.id).pkce!.verifier;
      assertEquals(
        a.repo.secrets(device.id).device?.deviceCode,
        DEVICE_CODE,
        "sealed, and opens with the key",
      );
      const rows = JSON.stringify(raw.prepare("SELECT * FROM signin_sessions").all());
      for (const secret of [DEVICE_CODE, verifier]) assert(!rows.includes(secret), `${secret} in ${rows}`);
      assert(rows.includes("enc:v1:"), "the secrets are there, sealed");
      for (const file of files) {
        const bytes = new TextDecoder("latin1").decode(await Deno.readFile(file));
        assert(!bytes.includes(DEVICE_CODE) && !bytes.includes(verifier), `plaintext secret in ${file}`);
      }
      const views = JSON.stringify([
        device,
        pkce,
        b.signin.get(device.id, "owner-a"),
        b.signin.get(pkce.id, "owner-a"),
      ]);
      assert(!views.includes(DEVICE_CODE) && !views.includes(verifier), views);
    },
  );
}
