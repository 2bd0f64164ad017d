import type { ApiType, OAuthOverrides, ProviderConfig } from "../../config/mod.ts";
import {
  type CredentialBlob,
  type OAuthKindFacts,
  parseCredential,
  resolveOAuthKind,
  serializeCredential,
} from "../../credentials/mod.ts";
import type { LimitWindow } from "../../routing/mod.ts";
import type { CredentialSlot, CredentialsRepo } from "../../storage/mod.ts";
import { REFRESH_STRATEGIES } from "./refresh_registry.ts";
import { RefreshError, type RefreshStrategy } from "./refresh_strategies.ts";
import { UNSAVED_PROVIDER_ID, unsavedCredential } from "./unsaved_credential.ts";

/** A refresh lease outlives the slowest token call (30 s) so that it never lapses mid-refresh. */
const LEASE_TTL_MS = 60_000;
/** How often a process waiting for another's lease looks again. */
const LEASE_POLL_MS = 50;
/** Longest wait for another process's lease before the refresh counts as failed. */
const LEASE_WAIT_MS = 70_000;

/** One stored credential the manager may refresh: where it lives and which kind it belongs to. */
export interface CredentialTarget {
  readonly slot: CredentialSlot;
  readonly apiType: ApiType;
  readonly oauth?: OAuthOverrides;
  /** The value the caller's configuration holds (may be older than the database's after a rotation). */
  readonly value: string;
}

/** What the manager needs from the outside world. */
export interface CredentialManagerDeps {
  readonly repo: Pick<
    CredentialsRepo,
    "tryLease" | "releaseLease" | "saveRotated" | "recordError" | "providerSlot"
  >;
  readonly fetcher: typeof fetch;
  /** Epoch ms. */
  readonly now: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called after a rotated credential was written back (the composition root reloads the control plane). */
  readonly onRotated?: (credentialId: string) => void;
  /** Called when a secret that lives only in memory appears (a new Copilot session token). */
  readonly onNewSecret?: () => void;
  /** Subscription quota read from an upstream (Copilot's `/copilot_internal/user`), for routing. */
  readonly onQuota?: (providerId: string, windows: readonly LimitWindow[]) => void;
  /** Per-kind strategies; defaults to REFRESH_STRATEGIES (other kinds register theirs there). */
  readonly strategies?: Readonly<Partial<Record<ApiType, RefreshStrategy>>>;
}

interface CacheEntry {
  /** The configured value this entry was derived from. */
  readonly seen: string;
  readonly blob: CredentialBlob;
}

/**
 * Stored beside the tokens by a refresh (Unix s): a token that lives shorter than the kind's lead is then
 * refreshed at half its life, not on every request (in this process, after a reload, or in another one).
 */
export const OBTAINED_AT = "obtained_at";

/**
 * Owns the lifecycle of subscription credentials: parse, refresh ahead of expiry, rotate, persist. A
 * refresh is single-flight per credential, serialised per OAuth client within this process (a chain) and
 * across processes (a lease row), re-reads the stored credential inside the lock (another process may have
 * rotated it already), and writes the new credential back before anyone uses it.
 */
export class CredentialManager {
  readonly #deps: CredentialManagerDeps;
  readonly #holder = crypto.randomUUID();
  readonly #cache = new Map<string, CacheEntry>();
  readonly #inflight = new Map<string, Promise<CredentialBlob>>();
  readonly #chains = new Map<string, Promise<unknown>>();
  /** Credentials whose token endpoint answered 429: no refresh before this instant (epoch ms). */
  readonly #blocked = new Map<string, { untilMs: number; error: RefreshError }>();
  /**
   * Access tokens an upstream rejected with 401, by credential: a stored credential still carrying one is
   * due however far its expiry is (the expiry says nothing about a revoked token).
   */
  readonly #rejected = new Map<string, string>();

  constructor(deps: CredentialManagerDeps) {
    this.#deps = deps;
  }

  /** A provider's current credential: at once when it is fresh, after a refresh when it is due. */
  forProvider(provider: ProviderConfig): CredentialBlob | Promise<CredentialBlob> {
    if (provider.id === UNSAVED_PROVIDER_ID) return unsavedCredential(provider.apiKey, this.#nowS());
    return this.access({
      slot: this.#deps.repo.providerSlot(provider.id),
      apiType: provider.apiType,
      oauth: provider.oauth,
      value: provider.apiKey,
    });
  }

  /** Any stored credential (a provider's api_key, an inventory key) by its slot. */
  access(target: CredentialTarget): CredentialBlob | Promise<CredentialBlob> {
    const facts = this.#facts(target);
    const entry = this.#entry(target);
    if (!this.#due(target.slot.id, entry, facts)) return entry.blob;
    return this.#refreshOnce(target, facts);
  }

  /**
   * Stores non-secret facts found after sign-in beside a provider's tokens (the Cloud Code project), so
   * the next request and the next process need not find them again. The tokens are not touched.
   */
  saveExtra(provider: ProviderConfig, blob: CredentialBlob, extra: Record<string, unknown>): CredentialBlob {
    const slot = this.#deps.repo.providerSlot(provider.id);
    const next = { ...blob, extra: { ...blob.extra, ...extra }, bare: false };
    this.#deps.repo.saveRotated(slot, serializeCredential(next), undefined, this.#deps.now());
    this.#cache.set(slot.id, { seen: provider.apiKey, blob: next });
    this.#deps.onRotated?.(slot.id);
    return next;
  }

  /**
   * Forces the next access to refresh (an upstream rejected the access token with 401). The rejected token
   * is remembered rather than the cached expiry zeroed: the refresh re-reads the stored credential, whose
   * expiry is still ahead, and would otherwise hand the same rejected token back.
   */
  invalidate(credentialId: string): void {
    const entry = this.#cache.get(credentialId);
    if (entry && entry.blob.refreshToken !== undefined && entry.blob.accessToken !== "") {
      this.#rejected.set(credentialId, entry.blob.accessToken);
    }
  }

  #facts(target: CredentialTarget): OAuthKindFacts {
    const facts = resolveOAuthKind(target.apiType, target.oauth);
    if (facts === null) throw new RefreshError(`api_type "${target.apiType}" has no OAuth credential`, false);
    return facts;
  }

  #entry(target: CredentialTarget): CacheEntry {
    const cached = this.#cache.get(target.slot.id);
    if (cached !== undefined && cached.seen === target.value) return cached;
    if (target.value.trim() === "") {
      throw new RefreshError(
        "no credential is stored yet: sign in first (Connect on the Providers screen)",
        true,
      );
    }
    let blob: CredentialBlob;
    try {
      blob = parseCredential(target.value, this.#nowS());
    } catch (error) {
      throw new RefreshError(`the stored credential cannot be used: ${(error as Error).message}`, true);
    }
    const entry: CacheEntry = { seen: target.value, blob };
    this.#cache.set(target.slot.id, entry);
    return entry;
  }

  /**
   * Due when there is no access token yet, the upstream rejected this one, or expiry is within the kind's
   * lead time (long-lived: never).
   */
  #due(id: string, entry: CacheEntry, facts: OAuthKindFacts): boolean {
    const { blob } = entry;
    if (blob.refreshToken === undefined) return false;
    if (blob.accessToken === "" || this.#rejected.get(id) === blob.accessToken) return true;
    if (blob.expiresAt === undefined) return false;
    let lead = facts.refreshLeadS;
    // A token that lives shorter than the lead would be refreshed on every request: half its life then.
    const obtainedAt = blob.extra[OBTAINED_AT];
    if (typeof obtainedAt === "number") lead = Math.min(lead, (blob.expiresAt - obtainedAt) / 2);
    return this.#nowS() >= blob.expiresAt - lead;
  }

  #refreshOnce(target: CredentialTarget, facts: OAuthKindFacts): Promise<CredentialBlob> {
    const id = target.slot.id;
    const running = this.#inflight.get(id);
    if (running !== undefined) return running;
    const blocked = this.#blocked.get(id);
    if (blocked !== undefined && this.#deps.now() < blocked.untilMs) return Promise.reject(blocked.error);
    const lease = `oauth:${facts.tokenUrl ?? ""}|${facts.clientId}`;
    const work = this.#serialised(lease, () => this.#refreshLocked(target, facts, lease))
      .finally(() => this.#inflight.delete(id));
    this.#inflight.set(id, work);
    return work;
  }

  /** Runs `work` after every earlier refresh of the same OAuth client in this process. */
  #serialised<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.#chains.get(name) ?? Promise.resolve();
    const next = before.then(work, work);
    const tail = next.catch(() => {});
    this.#chains.set(name, tail);
    tail.then(() => {
      if (this.#chains.get(name) === tail) this.#chains.delete(name);
    });
    return next;
  }

  async #refreshLocked(
    target: CredentialTarget,
    facts: OAuthKindFacts,
    lease: string,
  ): Promise<CredentialBlob> {
    const { repo } = this.#deps;
    const id = target.slot.id;
    await this.#takeLease(lease, facts);
    let stored: CacheEntry;
    try {
      const text = target.slot.read();
      if (text === undefined) throw new RefreshError(`${facts.label}: the credential was deleted`, true);
      // Another process may have rotated it while this one waited: its new credential is then used as is.
      stored = { seen: this.#cache.get(id)?.seen ?? target.value, blob: parseCredential(text, this.#nowS()) };
      if (!this.#due(id, stored, facts)) {
        repo.releaseLease(lease, this.#holder);
        this.#cache.set(id, stored);
        return stored.blob;
      }
    } catch (error) {
      repo.releaseLease(lease, this.#holder);
      throw error instanceof RefreshError ? error : new RefreshError((error as Error).message, true);
    }
    const strategy = (this.#deps.strategies ?? REFRESH_STRATEGIES)[target.apiType];
    try {
      if (strategy === undefined) throw new RefreshError(`${facts.label}: no refresh for this kind`, true);
      const refreshed = await strategy.refresh(stored.blob, {
        facts,
        fetcher: this.#deps.fetcher,
        nowS: () => this.#nowS(),
      });
      const next = { ...refreshed, extra: { ...refreshed.extra, [OBTAINED_AT]: this.#nowS() } };
      // Written back (and the spent token remembered) before anyone uses the new access token.
      repo.saveRotated(target.slot, serializeCredential(next), stored.blob.refreshToken, this.#deps.now(), {
        name: lease,
        holder: this.#holder,
      });
      this.#cache.set(id, { seen: stored.seen, blob: next });
      this.#rejected.delete(id);
      this.#deps.onRotated?.(id);
      return next;
    } catch (error) {
      repo.releaseLease(lease, this.#holder);
      const failure = error instanceof RefreshError
        ? error
        : new RefreshError((error as Error).message, false);
      repo.recordError(id, failure.message, this.#deps.now());
      // A token endpoint that asks to wait is not asked again (with the same token) before it said.
      if (failure.retryAfterMs !== null) {
        this.#blocked.set(id, { untilMs: this.#deps.now() + failure.retryAfterMs, error: failure });
      }
      throw failure;
    }
  }

  async #takeLease(lease: string, facts: OAuthKindFacts): Promise<void> {
    const sleep = this.#deps.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
    const started = this.#deps.now();
    while (!this.#deps.repo.tryLease(lease, this.#holder, this.#deps.now(), LEASE_TTL_MS)) {
      if (this.#deps.now() - started > LEASE_WAIT_MS) {
        throw new RefreshError(
          `${facts.label}: another gateway process kept the refresh lock too long`,
          false,
        );
      }
      await sleep(LEASE_POLL_MS);
    }
  }

  #nowS(): number {
    return Math.floor(this.#deps.now() / 1000);
  }
}
