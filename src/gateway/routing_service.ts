import type { RuntimeSettings } from "../config/runtime_settings.ts";
import {
  type AccountCursor,
  type ActiveCooldown,
  activeCooldowns,
  adoptCooldown,
  applyFailure,
  applySuccess,
  type Attempt,
  clearCooldowns,
  emptyRoutingState,
  type FailureClassification,
  isCooling,
  orderAccounts,
  orderByHeadroom,
  preferAccount,
  type Resolution,
  resolveAttempts,
  restoreCooldowns,
  type RoutingState,
  type RoutingTable,
} from "../routing/mod.ts";
import type { CooldownRecord, Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { ClusterChannel, ClusterSync } from "./cluster_sync.ts";
import type { CooldownEntry } from "../routing/routing_state.ts";

/** What one process tells the others about a cooldown (workers and instances sharing a database). */
type CooldownMessage =
  | { readonly set: string; readonly entry: CooldownEntry }
  | { readonly clear: string }
  | { readonly clearAll: true };
import { CacheAffinity } from "./cache_affinity.ts";
import { QuotaTracker } from "./quota_tracker.ts";

/**
 * Holds the routing state (cooldowns, combo cursors) for the process. The pure routing core decides;
 * this class keeps the current state and persists cooldown changes through the batched writer.
 */
export class RoutingService {
  #state: RoutingState = emptyRoutingState();
  #accountCursors: Record<string, AccountCursor> = {};
  /** Per client key: the account that last served it, per prefix (sticky client routing). */
  readonly #sticky = new Map<string, Record<string, string>>();
  readonly #store: Store;
  readonly #writer: BatchedWriter;
  readonly #peers: ClusterChannel<CooldownMessage> | null;
  /** What each account's limits are and how much it has left. */
  readonly quota = new QuotaTracker();
  /** Prompt-cache bindings: conversation → account. */
  readonly affinity: CacheAffinity;

  constructor(store: Store, writer: BatchedWriter, now: number, cluster?: ClusterSync) {
    this.#store = store;
    this.#writer = writer;
    this.affinity = new CacheAffinity(store, writer, now, cluster);
    const records = store.cooldowns.all().map((r) => ({ accountId: r.accountId, untilMs: r.expiresAt }));
    this.#state = restoreCooldowns(this.#state, records, now);
    this.#peers = cluster?.channel<CooldownMessage>("cooldown", (messages) => this.#adopt(messages)) ?? null;
  }

  /** Cooldowns other processes decided: honoured here from the next tick on (within 100 ms). */
  #adopt(messages: readonly CooldownMessage[]): void {
    for (const message of messages) {
      if ("set" in message) this.#state = adoptCooldown(this.#state, message.set, message.entry);
      else if ("clear" in message) this.#state = applySuccess(this.#state, message.clear);
      else this.#state = clearCooldowns(this.#state);
    }
  }

  /**
   * Resolves a model string into attempts, advancing combo and account rotation, and putting the
   * client's last account first when sticky client routing is on. Accounts without headroom then go
   * last (or, under quota_aware, accounts are ranked by headroom), and the account holding the
   * request's prompt cache (`cacheKey`) goes first while it is healthy.
   */
  resolve(
    table: RoutingTable,
    model: string,
    settings: RuntimeSettings,
    now: number,
    clientKey?: string,
    cacheKey?: string | null,
  ): Resolution {
    const result = resolveAttempts(table, model, this.#state, now, {
      cooldownsEnabled: settings.server_cooldowns_enabled,
      comboStrategy: settings.combo_strategy,
      comboStickyLimit: settings.combo_sticky_limit,
    });
    if (result.kind !== "attempts") return result;
    this.#state = result.nextState;
    const preferred = settings.server_sticky_client_routing && clientKey
      ? this.#sticky.get(clientKey)
      : undefined;
    const ordered = orderAccounts(result.attempts, this.#accountCursors, {
      strategy: settings.server_account_strategy,
      stickyLimit: settings.server_account_sticky_limit,
      preferred,
    });
    this.#accountCursors = ordered.cursors;
    const attempts = this.#withQuota(ordered.attempts, settings, now, cacheKey);
    return { ...result, attempts };
  }

  /**
   * The order the next request for `model` would get, without advancing any cursor (Routing screen).
   */
  preview(table: RoutingTable, model: string, settings: RuntimeSettings, now: number): Resolution {
    const result = this.peek(table, model, settings, now);
    if (result.kind !== "attempts") return result;
    const ordered = orderAccounts(result.attempts, this.#accountCursors, {
      strategy: settings.server_account_strategy,
      stickyLimit: settings.server_account_sticky_limit,
    });
    return { ...result, attempts: this.#withQuota(ordered.attempts, settings, now, null) };
  }

  #withQuota(
    attempts: readonly Attempt[],
    settings: RuntimeSettings,
    now: number,
    cacheKey: string | null | undefined,
  ): readonly Attempt[] {
    const headroomOf = (accountId: string) => this.quota.headroom(accountId, now);
    let out = orderByHeadroom(
      attempts,
      headroomOf,
      settings.server_account_strategy === "quota_aware",
      this.quota.spentNow(now),
    );
    if (cacheKey && settings.server_cache_affinity && out.length > 1) {
      const prefix = out[0].account.prefix;
      const bound = this.affinity.lookup(CacheAffinity.hash(prefix, cacheKey), now);
      if (bound !== undefined) out = preferAccount(out, bound, headroomOf);
    }
    return out;
  }

  /** Binds a request's prompt-cache key to the account that just served it. */
  bindCache(
    cacheKey: string,
    prefix: string,
    accountId: string,
    settings: RuntimeSettings,
    now: number,
  ): void {
    if (!settings.server_cache_affinity) return;
    this.affinity.bind(CacheAffinity.hash(prefix, cacheKey), accountId, now);
  }

  /** Resolves without advancing any cursor (fusion's routability check). */
  peek(table: RoutingTable, model: string, settings: RuntimeSettings, now: number): Resolution {
    return resolveAttempts(table, model, this.#state, now, {
      cooldownsEnabled: settings.server_cooldowns_enabled,
      comboStrategy: "fallback",
      comboStickyLimit: settings.combo_sticky_limit,
    });
  }

  /** True when the account is cooling now (and cooldowns are on). */
  isCooling(accountId: string, settings: RuntimeSettings, now: number): boolean {
    return settings.server_cooldowns_enabled && isCooling(this.#state, accountId, now);
  }

  /** Records a failed attempt and persists the resulting cooldown. */
  fail(
    accountId: string,
    classification: FailureClassification,
    reason: string,
    settings: RuntimeSettings,
    now: number,
    status = 0,
  ): void {
    if (!settings.server_cooldowns_enabled || classification.cooldownKind === null) return;
    const cause = { status, message: shortReason(reason), sinceMs: now };
    this.#state = applyFailure(this.#state, accountId, classification, now, cause);
    const entry = this.#state.cooldowns[accountId];
    this.#peers?.publishNow({ set: accountId, entry });
    const record: CooldownRecord = {
      accountId,
      expiresAt: entry.untilMs,
      reason: reason.slice(0, 300),
      backoffLevel: entry.backoffLevel,
    };
    this.#writer.enqueue(() => this.#store.cooldowns.apply([{ accountId, record }]));
  }

  /** Records a success: the account's cooldown and backoff are cleared; the client sticks to it. */
  succeed(accountId: string, prefix?: string, clientKey?: string): void {
    if (prefix !== undefined && clientKey !== undefined) {
      const map = this.#sticky.get(clientKey) ?? {};
      if (map[prefix] !== accountId) this.#sticky.set(clientKey, { ...map, [prefix]: accountId });
    }
    if (!Object.hasOwn(this.#state.cooldowns, accountId)) return;
    this.#state = applySuccess(this.#state, accountId);
    this.#peers?.publish({ clear: accountId });
    this.#writer.enqueue(() => this.#store.cooldowns.apply([{ accountId, record: null }]));
  }

  /** Active cooldowns, soonest expiry first. */
  active(now: number): ActiveCooldown[] {
    return activeCooldowns(this.#state, now);
  }

  /**
   * Clears one account's cooldown and backoff in memory and in the database: its operator cleared it, or
   * changed what made it fail (its key or base URL). Other processes are told, as for a success.
   */
  clearAccount(accountId: string): boolean {
    if (!Object.hasOwn(this.#state.cooldowns, accountId)) return false;
    this.#state = applySuccess(this.#state, accountId);
    this.#peers?.publishNow({ clear: accountId });
    this.#writer.enqueue(() => this.#store.cooldowns.apply([{ accountId, record: null }]));
    this.#writer.flush();
    return true;
  }

  /** Clears every cooldown in memory and in the database. */
  clearAll(): void {
    this.#state = clearCooldowns(this.#state);
    this.#peers?.publishNow({ clearAll: true });
    this.#writer.enqueue(() => this.#store.cooldowns.clear());
    this.#writer.flush();
  }
}

/** Cooldown causes are shown to clients in the 503: one line, short (the usage row keeps the whole text). */
const CAUSE_CHARS = 200;

function shortReason(reason: string): string {
  const line = reason.replace(/\s+/g, " ").trim();
  return line.length <= CAUSE_CHARS ? line : `${line.slice(0, CAUSE_CHARS - 1)}…`;
}
