import type { Config, PriceConfig, ProviderConfig } from "../config/mod.ts";
import { resolveSettings, type RuntimeSettings } from "../config/runtime_settings.ts";
import { secretsOf } from "../credentials/mod.ts";
import { digestsEqual, hashApiKey } from "../security/api_key.ts";
import { Redactor } from "../security/redact.ts";
import { effectiveLimits, type RateLimits } from "../accounting/mod.ts";
import type {
  ApiKeyRecord,
  BudgetRecord,
  ComboRecord,
  KeyGroupRecord,
  PeriodBudgetRecord,
  Store,
} from "../storage/mod.ts";
import { type ClientIdentity, keyIdentity } from "./identity.ts";
import { type AccountConfig, expandAccounts } from "./inventory_accounts.ts";
import { log } from "../log.ts";

/** What changed in a reload, so listeners rebuild only what they must. */
export interface ReloadEvent {
  readonly reason: "start" | "external" | "local";
}

/**
 * The in-memory copy of everything the request path reads (keys, settings, providers, combos, prices,
 * budgets). Storage loads it at start; local changes call reload(); changes by other processes (the
 * CLI, other workers) are picked up by polling the configuration generation (bumped by triggers on every
 * configuration table), so nothing on the request path waits for the database and usage rows other
 * processes write do not cause reloads.
 */
export class ControlPlane {
  readonly config: Config;
  readonly store: Store;
  #settings!: RuntimeSettings;
  #keysByHash = new Map<string, ApiKeyRecord>();
  #keysById = new Map<number, ApiKeyRecord>();
  /** Rotated keys' previous secrets, accepted until their grace period ends. */
  #keysByPreviousHash = new Map<string, ApiKeyRecord>();
  #groupsById = new Map<number, KeyGroupRecord>();
  /** Each DB key's effective rate limits (own, group's, default), precomputed per reload. */
  #limitsByKey = new Map<number, RateLimits>();
  #defaultLimits: RateLimits = { rpm: null, tpm: null, maxParallel: null };
  #periodBudgets: readonly PeriodBudgetRecord[] = [];
  /** Last authentication per key since the last flush (the batched writer stores it). */
  #lastUsed = new Map<number, number>();
  readonly #now: () => number;
  #keyUsed: (() => void) | null = null;
  /** Every key's last authentication in this process (never cleared; a few numbers per key). */
  readonly #lastSeen = new Map<number, number>();
  #staticKeys = new Map<string, string>();
  #providers: readonly ProviderConfig[] = [];
  #accounts: readonly AccountConfig[] = [];
  #accountsById = new Map<string, AccountConfig>();
  #combos: readonly ComboRecord[] = [];
  #pricing: Readonly<Record<string, PriceConfig>> = {};
  #budgets: readonly BudgetRecord[] = [];
  #listeners: ((event: ReloadEvent) => void)[] = [];
  #generation = -1;
  #redactor: Redactor | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #secretSources: (() => readonly string[])[] = [];

  constructor(config: Config, store: Store, now: () => number) {
    this.config = config;
    this.store = store;
    this.#now = now;
    for (const k of config.apiKeys) this.#staticKeys.set(hashApiKey(k.key), k.label);
    this.#load();
  }

  /** Current runtime settings. */
  get settings(): RuntimeSettings {
    return this.#settings;
  }

  /** Every configured provider account (enabled or not), in routing order. */
  get providers(): readonly ProviderConfig[] {
    return this.#providers;
  }

  /** Every account in routing order: provider rows and the inventory keys they expand into. */
  get accounts(): readonly AccountConfig[] {
    return this.#accounts;
  }

  /** The account with this id (a map lookup: the request path calls it once per attempt). */
  account(id: string): AccountConfig | undefined {
    return this.#accountsById.get(id);
  }

  /** Every combo. */
  get combos(): readonly ComboRecord[] {
    return this.#combos;
  }

  /** Pricing overrides by model. */
  get pricing(): Readonly<Record<string, PriceConfig>> {
    return this.#pricing;
  }

  /** Budgets (global and per key). */
  get budgets(): readonly BudgetRecord[] {
    return this.#budgets;
  }

  /** Every DB key. */
  get keys(): readonly ApiKeyRecord[] {
    return [...this.#keysById.values()];
  }

  /** A DB key by id (revoked ones included). */
  key(id: number): ApiKeyRecord | undefined {
    return this.#keysById.get(id);
  }

  /** Every key group. */
  get groups(): readonly KeyGroupRecord[] {
    return [...this.#groupsById.values()];
  }

  /** A key group by id. */
  group(id: number): KeyGroupRecord | undefined {
    return this.#groupsById.get(id);
  }

  /** Budgets of every period and scope (the daily key and global ones included). */
  get periodBudgets(): readonly PeriodBudgetRecord[] {
    return this.#periodBudgets;
  }

  /**
   * The rate limits of a limiter scope (`key:<id>`, `static:<label>`, `anonymous`): a DB key's own, else
   * its group's, else the default settings; null for a key that no longer exists.
   */
  rateLimitsOf(scope: string): RateLimits | null {
    if (!scope.startsWith("key:")) return this.#defaultLimits;
    return this.#limitsByKey.get(Number(scope.slice(4))) ?? null;
  }

  /** The limits of static keys, keyless requests and keys with none of their own (runtime settings). */
  get defaultRateLimits(): RateLimits {
    return this.#defaultLimits;
  }

  /** A DB key's effective rate limits (the defaults when it is unknown). */
  keyRateLimits(keyId: number): RateLimits {
    return this.#limitsByKey.get(keyId) ?? this.#defaultLimits;
  }

  /**
   * A key's last use as far as this process knows: its own authentications since start, else what was
   * stored when the keys were last loaded (other processes' uses show after the next reload).
   */
  lastUsedAt(key: ApiKeyRecord): number | null {
    const seen = this.#lastSeen.get(key.id);
    return seen === undefined ? key.lastUsedAt : Math.max(seen, key.lastUsedAt ?? 0);
  }

  /** `listener` runs when a key is used for the first time since the last `takeLastUsed`. */
  onKeyUsed(listener: () => void): void {
    this.#keyUsed = listener;
  }

  /** Keys used since the last call, with their last use (the batched writer flushes them). */
  takeLastUsed(): { id: number; at: number }[] {
    if (this.#lastUsed.size === 0) return [];
    const uses = [...this.#lastUsed].map(([id, at]) => ({ id, at }));
    this.#lastUsed = new Map();
    return uses;
  }

  /**
   * Hides every credential the gateway knows (provider, inventory and static keys) and, in client text,
   * upstream hosts. Built on first use after each reload: only error paths need it.
   */
  get redactor(): Redactor {
    this.#redactor ??= new Redactor({
      secrets: [
        // A subscription blob's tokens are hidden one by one: an upstream echoes a token, not the blob.
        ...this.#providers.flatMap((p) => [p.apiKey, ...secretsOf(p.apiKey)]),
        ...this.#secretSources.flatMap((source) => source()),
        ...this.config.apiKeys.map((k) => k.key),
        ...this.#inventorySecrets().flatMap((s) => [s, ...secretsOf(s)]),
      ],
      upstreamUrls: this.#providers.map((p) => p.baseUrl),
    });
    return this.#redactor;
  }

  /** Adds secrets that live outside the database (short-lived session tokens) to the redactor. */
  addSecretSource(source: () => readonly string[]): void {
    this.#secretSources.push(source);
    this.#redactor = null;
  }

  /** A secret source has a new secret: the redactor is rebuilt on its next use. */
  secretsChanged(): void {
    this.#redactor = null;
  }

  /**
   * Resolves a presented key to an identity; null when it is unknown, revoked or expired. A rotated key's
   * previous secret is accepted until its grace period ends. The use is remembered in memory only.
   */
  identify(presented: string): ClientIdentity | null {
    const hash = hashApiKey(presented);
    const label = this.#staticKeys.get(hash);
    if (label !== undefined) return { kind: "static", label, keyHash: hash };
    const now = this.#now();
    const current = this.#keysByHash.get(hash);
    // The map lookup finds the candidate; the constant-time compare is the actual check.
    const record = current !== undefined && digestsEqual(current.keyHash, hash)
      ? current
      : this.#previous(hash, now);
    if (!record || record.status !== "active") return null;
    if (record.expiresAt !== null && now >= record.expiresAt) return null;
    if (this.#lastUsed.size === 0) this.#keyUsed?.();
    this.#lastUsed.set(record.id, now);
    this.#lastSeen.set(record.id, now);
    const group = record.groupId === null ? undefined : this.#groupsById.get(record.groupId);
    return keyIdentity(record, group?.allowedModels ?? []);
  }

  #previous(hash: string, now: number): ApiKeyRecord | undefined {
    const record = this.#keysByPreviousHash.get(hash);
    if (record === undefined || record.previousKeyHash === null) return undefined;
    if (!digestsEqual(record.previousKeyHash, hash)) return undefined;
    return record.previousValidUntil !== null && now < record.previousValidUntil ? record : undefined;
  }

  /** Re-reads everything from the database and notifies listeners. */
  reload(reason: ReloadEvent["reason"] = "local"): void {
    this.#load();
    for (const listener of this.#listeners) listener({ reason });
  }

  /** Registers a listener called after every reload. */
  onReload(listener: (event: ReloadEvent) => void): void {
    this.#listeners.push(listener);
  }

  /** Starts polling for changes made by other processes (default every 250 ms: one indexed read). */
  watch(intervalMs = 250): void {
    if (this.#timer !== undefined) return;
    let lastSignal: number | null = null;
    let failing = false;
    const timer = setInterval(() => {
      try {
        // On PostgreSQL a NOTIFY says when to look; SQLite has no such signal, so it is read every time.
        const signal = this.store.changeSignal();
        if (signal !== null && signal === lastSignal) return;
        if (this.store.cluster.configGeneration() !== this.#generation) this.reload("external");
        // Remembered only after a good read, so a failed one is tried again on the next poll.
        lastSignal = signal;
        if (failing) log("info", "reloading state works again");
        failing = false;
      } catch (error) {
        // Once per outage: an unreachable database would otherwise log four lines a second.
        if (!failing) log("error", `reloading state failed: ${(error as Error).message}`);
        failing = true;
      }
    }, intervalMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Stops polling. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #inventorySecrets(): string[] {
    try {
      return this.store.inventory.secretValues().flatMap((value) => [value, ...secretsOf(value)]);
    } catch (error) {
      // The shapes still catch most keys; a damaged inventory must not stop an error from being answered.
      log("warn", `inventory keys could not be read for redaction: ${(error as Error).message}`);
      return [];
    }
  }

  #expand(): AccountConfig[] {
    try {
      return expandAccounts(
        this.#providers,
        this.store.inventory.routable(),
        this.store.inventory.blockedHashes(),
      );
    } catch (error) {
      // An unreadable inventory must not stop the configured providers from routing.
      log("warn", `inventory keys could not be expanded into accounts: ${(error as Error).message}`);
      return expandAccounts(this.#providers, [], new Set());
    }
  }

  #load(): void {
    this.#redactor = null;
    this.#generation = this.store.cluster.configGeneration();
    this.#settings = resolveSettings(this.store.settings.all(), this.config.server.requireApiKey);
    const keys = this.store.keys.list();
    this.#keysByHash = new Map(keys.map((k) => [k.keyHash, k]));
    this.#keysById = new Map(keys.map((k) => [k.id, k]));
    this.#keysByPreviousHash = new Map(
      keys.flatMap((k) => k.previousKeyHash === null ? [] : [[k.previousKeyHash, k] as const]),
    );
    this.#groupsById = new Map(this.store.keyGroups.list().map((g) => [g.id, g]));
    this.#defaultLimits = defaultRateLimits(this.#settings);
    this.#limitsByKey = new Map(keys.map((k) => {
      const group = k.groupId === null ? undefined : this.#groupsById.get(k.groupId);
      return [k.id, effectiveLimits(k.limits, group?.limits ?? null, this.#defaultLimits)] as const;
    }));
    this.#providers = this.store.providers.list();
    this.#accounts = this.#expand();
    this.#accountsById = new Map(this.#accounts.map((a) => [a.id, a]));
    this.#combos = this.store.combos.list();
    this.#pricing = this.store.pricing.all();
    this.#budgets = this.store.budgets.list();
    this.#periodBudgets = this.store.budgets.listAll();
  }
}

/** The limits of keys without their own (and of static keys and keyless requests); 0 is "no limit". */
function defaultRateLimits(settings: RuntimeSettings): RateLimits {
  const limit = (n: number) => n > 0 ? n : null;
  return {
    rpm: limit(settings.rate_limit_default_rpm),
    tpm: limit(settings.rate_limit_default_tpm),
    maxParallel: limit(settings.rate_limit_default_max_parallel),
  };
}
