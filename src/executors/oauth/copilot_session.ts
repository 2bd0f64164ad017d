import type { ProviderConfig } from "../../config/mod.ts";
import { type OAuthKindFacts, resolveOAuthKind } from "../../credentials/mod.ts";
import type { CredentialManager } from "./credential_manager.ts";
import { RefreshError } from "./refresh_strategies.ts";
import { getJson } from "./token_endpoint.ts";

/** The editor identity Copilot requires on every call (values of the current VS Code Copilot Chat). */
export const COPILOT_EDITOR_HEADERS: Readonly<Record<string, string>> = {
  "editor-version": "vscode/1.110.0",
  "editor-plugin-version": "copilot-chat/0.38.0",
  "user-agent": "GitHubCopilotChat/0.38.0",
  "x-github-api-version": "2025-04-01",
};

/** Refresh the session token this long before it expires. */
const SESSION_LEAD_S = 300;
/** When the exchange names no expiry. */
const SESSION_FALLBACK_TTL_S = 25 * 60;

/** A Copilot session: the short-lived token and the API base it is valid for. */
export interface CopilotSession {
  readonly token: string;
  readonly expiresAt: number;
  /** `endpoints.api` of the exchange (tier-specific), or null when it named none. */
  readonly apiBase: string | null;
}

/**
 * Exchanges a provider's stored GitHub token for Copilot session tokens: cached in memory (they are
 * derived, never stored), single-flight per provider, renewed five minutes before they expire.
 */
export class CopilotSessions {
  readonly #credentials: CredentialManager;
  readonly #fetcher: typeof fetch;
  readonly #now: () => number;
  readonly #sessions = new Map<string, { githubToken: string; session: CopilotSession }>();
  readonly #inflight = new Map<string, Promise<CopilotSession>>();
  readonly #onNewSecret: () => void;

  constructor(
    credentials: CredentialManager,
    fetcher: typeof fetch,
    now: () => number,
    onNewSecret = () => {},
  ) {
    this.#credentials = credentials;
    this.#fetcher = fetcher;
    this.#now = now;
    this.#onNewSecret = onNewSecret;
  }

  /** A valid session for the provider: at once from the cache, or after one exchange. */
  get(provider: ProviderConfig): CopilotSession | Promise<CopilotSession> {
    const github = this.#credentials.forProvider(provider);
    if (github instanceof Promise) return github.then((blob) => this.#session(provider, blob.accessToken));
    return this.#session(provider, github.accessToken);
  }

  /** Every live session token (for redaction). */
  secrets(): string[] {
    return [...this.#sessions.values()].map((s) => s.session.token);
  }

  /** Drops a provider's session (the upstream rejected it). */
  forget(providerId: string): void {
    this.#sessions.delete(providerId);
  }

  #session(provider: ProviderConfig, githubToken: string): CopilotSession | Promise<CopilotSession> {
    const cached = this.#sessions.get(provider.id);
    const nowS = Math.floor(this.#now() / 1000);
    if (cached && cached.githubToken === githubToken && nowS < cached.session.expiresAt - SESSION_LEAD_S) {
      return cached.session;
    }
    const running = this.#inflight.get(provider.id);
    if (running) return running;
    const facts = resolveOAuthKind(provider.apiType, provider.oauth)!;
    const work = this.#exchange(facts, githubToken).then((session) => {
      this.#sessions.set(provider.id, { githubToken, session });
      this.#onNewSecret();
      return session;
    }).finally(() => this.#inflight.delete(provider.id));
    this.#inflight.set(provider.id, work);
    return work;
  }

  async #exchange(facts: OAuthKindFacts, githubToken: string): Promise<CopilotSession> {
    const url = facts.sessionTokenUrl;
    if (!url) throw new RefreshError(`${facts.label}: no session token URL`, false);
    let answer;
    try {
      answer = await getJson(this.#fetcher, url, {
        authorization: `token ${githubToken}`,
        ...COPILOT_EDITOR_HEADERS,
      });
    } catch (error) {
      throw new RefreshError(
        `${facts.label}: session token exchange failed: ${(error as Error).message}`,
        false,
      );
    }
    const token = answer.json?.token;
    if (answer.status !== 200 || typeof token !== "string" || token === "") {
      const dead = answer.status === 401 || answer.status === 403 || answer.status === 404;
      throw new RefreshError(
        `${facts.label}: session token exchange answered HTTP ${answer.status}` +
          (dead ? "; the GitHub token has no Copilot access (sign in again, or check the subscription)" : ""),
        dead,
      );
    }
    const nowS = Math.floor(this.#now() / 1000);
    const expiresAt = Number(answer.json?.expires_at);
    const endpoints = (answer.json?.endpoints ?? {}) as Record<string, unknown>;
    return {
      token,
      expiresAt: Number.isFinite(expiresAt) && expiresAt > nowS ? expiresAt : nowS + SESSION_FALLBACK_TTL_S,
      apiBase: typeof endpoints.api === "string" && endpoints.api !== ""
        ? endpoints.api.replace(/\/+$/, "")
        : null,
    };
  }
}
