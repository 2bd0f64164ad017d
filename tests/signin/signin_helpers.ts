/**
 * SigninService instances for the sign-in tests, over the mock OAuth server: each one stands for a gateway
 * process (a worker, an instance) on a shared database, with its own list of what it saved.
 */
import type { ApiType, ProviderConfig } from "../../src/config/mod.ts";
import { GatewayError } from "../../src/model/mod.ts";
import { type SignedInCredential, type SigninFacts, SigninService } from "../../src/features/signin/mod.ts";
import { openDatabase, SecretBox, SigninSessionsRepo, type SqlDatabase } from "../../src/storage/mod.ts";
import type { MockOAuth } from "../helpers/mock_oauth.ts";

/** The key every test process seals with (instances on one database share their key). */
export const TEST_BOX = new SecretBox(new Uint8Array(32).fill(9));

/** The mock's endpoints as a kind's OAuth facts (device: RFC 8628; PKCE with a form token body). */
export function mockFacts(mock: MockOAuth): SigninFacts {
  return {
    label: "Mock subscription",
    clientId: "mock-client",
    tokenUrl: `${mock.url}/oauth/token`,
    tokenBody: "form",
    authorize: { url: `${mock.url}/oauth/authorize`, redirectUri: `${mock.url}/callback`, scopes: "openid" },
    device: {
      codeUrl: `${mock.url}/login/device/code`,
      tokenUrl: `${mock.url}/login/oauth/access_token`,
      verificationUrl: `${mock.url}/login/device`,
      protocol: "rfc8628",
    },
  };
}

function provider(id: string, apiType: ApiType): ProviderConfig {
  return { id, prefix: id, apiType, baseUrl: "http://127.0.0.1:9", apiKey: "", models: [], enabled: true };
}

/** One process's sign-in service and what it saved. */
export interface TestSignin {
  readonly signin: SigninService;
  readonly saved: { id: string; credential: SignedInCredential }[];
  readonly repo: SigninSessionsRepo;
}

/**
 * A service over `db` (a fresh in-memory SQLite database by default) whose polls do not wait: providers
 * `copilot` and `other` sign in at the mock, `plain` is an API-key provider.
 */
export function signinOver(mock: MockOAuth, db: SqlDatabase = openDatabase(":memory:")): TestSignin {
  const saved: { id: string; credential: SignedInCredential }[] = [];
  const providers = [
    provider("copilot", "device_oauth_assistant"),
    provider("other", "device_oauth_assistant"),
    provider("plain", "chat_compat"),
  ];
  const repo = new SigninSessionsRepo(db, TEST_BOX);
  const signin = new SigninService({
    fetch,
    now: Date.now,
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
    provider: (id) => {
      const found = providers.find((p) => p.id === id);
      if (!found) throw new GatewayError(404, "not_found", `Provider "${id}" does not exist`);
      return found;
    },
    facts: (p) => p.apiType === "chat_compat" ? null : mockFacts(mock),
    save: (id, credential) => saved.push({ id, credential }),
    sessions: repo,
    sleep: (_ms, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, 1);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      }),
  });
  return { signin, saved, repo };
}

/** The authorize page's redirect back (what the user pastes), after visiting it at the mock. */
export async function visitAuthorize(authorizeUrl: string): Promise<string> {
  const landed = await fetch(authorizeUrl, { redirect: "manual" });
  await landed.body?.cancel();
  return landed.headers.get("location")!;
}
