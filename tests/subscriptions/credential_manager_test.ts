import type { ProviderConfig } from "../../src/config/mod.ts";
import { CredentialManager, RefreshError } from "../../src/executors/oauth/mod.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

const NOW_MS = 1_800_000_000_000;

function setup(answer: (body: URLSearchParams) => Response) {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32).fill(9)));
  const provider: ProviderConfig = {
    id: "codex-1",
    prefix: "codex",
    apiType: "responses_oauth",
    baseUrl: "http://127.0.0.1:1/backend-api/codex",
    apiKey: JSON.stringify({ access_token: "a1", refresh_token: "r1", expires_at: NOW_MS / 1000 + 60 }),
    models: [],
    enabled: true,
    oauth: { tokenUrl: "http://127.0.0.1:1/oauth/token" },
  };
  store.providers.upsert(provider, 0);
  let clock = NOW_MS;
  const calls: URLSearchParams[] = [];
  const fetcher = ((_url: string, init: RequestInit) => {
    const body = new URLSearchParams(String(init.body));
    calls.push(body);
    return Promise.resolve(answer(body));
  }) as typeof fetch;
  const manager = new CredentialManager({ repo: store.credentials, fetcher, now: () => clock });
  return { store, provider, manager, calls, advance: (ms: number) => (clock += ms) };
}

Deno.test("CredentialManager: a token endpoint's 429 blocks refreshes of that credential until its Retry-After", async () => {
  const t = setup(() =>
    Response.json({ error: "rate_limited" }, { status: 429, headers: { "retry-after": "30" } })
  );
  for (let i = 0; i < 3; i++) {
    const error = await Promise.resolve(t.manager.forProvider(t.provider)).then(() => null, (e) => e);
    assert(error instanceof RefreshError, String(error));
  }
  assertEquals(t.calls.length, 1, "asked once, then blocked");
  t.advance(31_000);
  await Promise.resolve(t.manager.forProvider(t.provider)).catch(() => {});
  assertEquals(t.calls.length, 2, "asked again after Retry-After");
  assert(t.store.credentials.states().get("provider:codex-1")?.lastError?.includes("HTTP 429"));
});

Deno.test("CredentialManager: a refresh sends the kind's client id and scope, and a credential rotated elsewhere is adopted", async () => {
  const t = setup(() => Response.json({ access_token: "a2", refresh_token: "r2", expires_in: 864_000 }));
  const first = await t.manager.forProvider(t.provider);
  assertEquals(first.accessToken, "a2");
  assertEquals(t.calls[0].get("client_id"), "app_EMoamEEZ73f0CkXaXp7hrann");
  assertEquals(t.calls[0].get("scope"), "openid profile email");
  assertEquals(t.calls[0].get("refresh_token"), "r1");
  // A second manager (another process) still holds the expiring a1/r1 copy: it finds a2 stored and uses it.
  const other = new CredentialManager({
    repo: t.store.credentials,
    fetcher: (() => Promise.reject(new Error("must not refresh"))) as typeof fetch,
    now: () => NOW_MS,
  });
  const adopted = await other.forProvider(t.provider);
  assertEquals(adopted.accessToken, "a2", "the stored, rotated credential is used");
  assertEquals(t.calls.length, 1);
});

Deno.test("CredentialManager: a bare token and a blob without a refresh token are never refreshed", () => {
  const t = setup(() => new Response("no", { status: 500 }));
  const bare = t.manager.forProvider({ ...t.provider, apiKey: "sk-ant-oat01-longlived" });
  assert(!(bare instanceof Promise));
  assertEquals(bare.accessToken, "sk-ant-oat01-longlived");
  const expired = t.manager.forProvider({
    ...t.provider,
    apiKey: JSON.stringify({ access_token: "x", expires_at: 1 }),
  });
  assert(!(expired instanceof Promise));
  assertEquals(t.calls.length, 0);
});

Deno.test("CredentialManager: a provider added without a credential is an auth failure that says to sign in", () => {
  const t = setup(() => new Response("no", { status: 500 }));
  let error: unknown = null;
  try {
    t.manager.forProvider({ ...t.provider, apiKey: "" });
  } catch (e) {
    error = e;
  }
  assert(error instanceof RefreshError && error.message.includes("sign in first"), String(error));
  assertEquals(t.calls.length, 0);
});

Deno.test("CredentialManager: a token that lives shorter than the lead is not refreshed again on every request after the reload", async () => {
  // Codex's lead is 5 days; this server issues one-hour tokens.
  const t = setup(() => Response.json({ access_token: "a2", refresh_token: "r2", expires_in: 3600 }));
  await t.manager.forProvider(t.provider);
  assertEquals(t.calls.length, 1);
  // The control plane reloads and hands the manager the stored (rotated) value.
  const stored = t.store.providers.get("codex-1")!;
  const again = t.manager.forProvider(stored);
  assert(!(again instanceof Promise), "no second refresh");
  assertEquals(again.accessToken, "a2");
  // Another process that reads the stored value does not refresh it either.
  const other = new CredentialManager({
    repo: t.store.credentials,
    fetcher: (() => Promise.reject(new Error("must not refresh"))) as typeof fetch,
    now: () => NOW_MS,
  });
  assert(!(other.forProvider(stored) instanceof Promise));
  t.advance(29 * 60_000);
  await t.manager.forProvider(stored);
  assertEquals(t.calls.length, 1, "still fresh before half its life");
  t.advance(2 * 60_000);
  await t.manager.forProvider(stored);
  assertEquals(t.calls.length, 2, "refreshed past half its life");
});

Deno.test("CredentialManager: a token an upstream rejected with 401 is refreshed once, though its stored expiry is ahead", async () => {
  const t = setup(() => Response.json({ access_token: "a2", refresh_token: "r2", expires_in: 864_000 }));
  // Fresh for ten days: only the 401 can make it due.
  const fresh = {
    ...t.provider,
    apiKey: JSON.stringify({ access_token: "a1", refresh_token: "r1", expires_at: NOW_MS / 1000 + 864_000 }),
  };
  t.store.providers.upsert(fresh, 0);
  assertEquals((await t.manager.forProvider(fresh)).accessToken, "a1");
  assertEquals(t.calls.length, 0);
  t.manager.invalidate("provider:codex-1");
  assertEquals(
    (await t.manager.forProvider(fresh)).accessToken,
    "a2",
    "the rejected token is not handed back",
  );
  assertEquals(t.calls.length, 1);
  assertEquals(t.calls[0].get("refresh_token"), "r1");
  assertEquals(
    (await t.manager.forProvider(fresh)).accessToken,
    "a2",
    "the new token is not refreshed again",
  );
  assertEquals(t.calls.length, 1);
});

Deno.test("CredentialManager: refreshes of accounts that share one OAuth client never overlap", async () => {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32).fill(9)));
  const providers: ProviderConfig[] = [1, 2, 3].map((n) => ({
    id: `codex-${n}`,
    prefix: "codex",
    apiType: "responses_oauth",
    baseUrl: "http://127.0.0.1:1/backend-api/codex",
    apiKey: JSON.stringify({ access_token: `a${n}`, refresh_token: `r${n}`, expires_at: NOW_MS / 1000 + 60 }),
    models: [],
    enabled: true,
    oauth: { tokenUrl: "http://127.0.0.1:1/oauth/token" },
  }));
  for (const provider of providers) store.providers.upsert(provider, 0);
  let running = 0;
  let most = 0;
  const spent: string[] = [];
  const fetcher = (async (_url: string, init: RequestInit) => {
    const token = new URLSearchParams(String(init.body)).get("refresh_token") ?? "";
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    spent.push(token);
    return Response.json({ access_token: `new-${token}`, refresh_token: `next-${token}`, expires_in: 3600 });
  }) as typeof fetch;
  const manager = new CredentialManager({ repo: store.credentials, fetcher, now: () => NOW_MS });
  const blobs = await Promise.all(providers.map((p) => manager.forProvider(p)));
  assertEquals(blobs.map((b) => b.accessToken), ["new-r1", "new-r2", "new-r3"]);
  assertEquals(spent.toSorted(), ["r1", "r2", "r3"], "each account's own token, once");
  assertEquals(most, 1, "one refresh of the shared client at a time");
});
