import { noopRequestSpanSink, type RequestSpanSink } from "../telemetry/mod.ts";
import type { Config, ProviderQuota } from "../config/mod.ts";
import { ProviderClients } from "../executors/http_clients.ts";
import { Subscriptions } from "../executors/oauth/mod.ts";
import { oauthKind } from "../credentials/mod.ts";
import { type AccountLimits, buildRoutingTable, filterModelList, type RoutingTable } from "../routing/mod.ts";
import type { Store } from "../storage/mod.ts";
import { BatchedWriter } from "./batched_writer.ts";
import { TurnTokenStore } from "./turn_token_store.ts";
import { ResponseStore } from "./response_store.ts";
import { TokenCounter } from "./token_counter.ts";
import { LongTextRedactor } from "./long_text_redactor.ts";
import type { ParsedJson } from "../long_strings.ts";
import { decodeUtf8Parts } from "../bytes.ts";
import { RateLimiter } from "../accounting/mod.ts";
import { BudgetGuard } from "./budget_guard.ts";
import { RateGate } from "./rate_gate.ts";
import { RateLimitSync } from "./rate_limit_sync.ts";
import { ClusterSync } from "./cluster_sync.ts";
import { ControlPlane } from "./control_plane.ts";
import type { AccountConfig } from "./inventory_accounts.ts";
import { Dispatcher, type DispatchObserver, type UpstreamTimeouts } from "./dispatch.ts";
import { type ClientIdentity, identityAllowlists } from "./identity.ts";
import { type CatalogEntry, modelCatalog } from "./model_catalog.ts";
import { RoutingService } from "./routing_service.ts";
import { SaverService } from "./saver_service.ts";
import { UsageRecorder } from "./usage_recorder.ts";

/** Knobs tests and the CLI may set. */
export interface RuntimeOptions {
  /** The wall clock (ms), from the composition root. */
  readonly now: () => number;
  /** Overrides `limits.response_timeout_s` and `limits.idle_timeout_s` (tests). */
  readonly timeouts?: UpstreamTimeouts;
  /** Outbound fetch for the Headroom saver. */
  readonly fetch?: typeof fetch;
  /** Outbound fetch for OAuth token, session and model-list calls (default: the global fetch). */
  readonly oauthFetch?: typeof fetch;
  /** Environment lookup (proxy variables for upstream calls); only the composition root reads the real one. */
  readonly env?: (name: string) => string | undefined;
  /** This process's name among the processes sharing the database (`worker-2`); defaults to `main`. */
  readonly processLabel?: string;
  /** Where request and attempt spans go (src/telemetry); without it nothing is recorded. */
  readonly spans?: RequestSpanSink;
  /**
   * Parses JSON the response store wrote in parts off the serving thread (the HTTP layer's JSON parser);
   * without it such JSON is parsed here, in one step.
   */
  readonly parseStored?: (parts: Uint8Array<ArrayBuffer>[]) => Promise<ParsedJson>;
}

/**
 * The gateway's long-lived parts wired together: the control plane (in-memory state), the routing table
 * rebuilt on every reload, routing state, provider HTTP clients, usage recording and the batched writer.
 * It knows neither HTTP nor the dashboard: the composition root (src/compose.ts) attaches those.
 */
export class GatewayRuntime {
  readonly control: ControlPlane;
  readonly now: () => number;
  readonly writer: BatchedWriter;
  readonly routing: RoutingService;
  readonly clients: ProviderClients;
  readonly budgets: BudgetGuard;
  readonly recorder: UsageRecorder;
  readonly dispatcher: Dispatcher;
  /** The Responses API's stored responses, shared by every process on the database. */
  readonly responses: ResponseStore;
  /** Request observers (request logs, live usage); add to it before serving. */
  readonly observers: DispatchObserver[] = [];
  readonly savers: SaverService;
  /** Subscription credentials (refresh, rotation, Copilot sessions). */
  readonly subscriptions: Subscriptions;
  /** Cooldowns, spend and live events shared with other processes on the same database. */
  readonly cluster: ClusterSync;
  /** Per-key rate limits (in memory), and their exchange with the other processes on the database. */
  readonly limiter = new RateLimiter();
  readonly rateSync: RateLimitSync;
  #table!: RoutingTable;
  readonly #counter = new TokenCounter();
  readonly #longRedactor = new LongTextRedactor();
  /** Each account's endpoint at the last reload, to see which changed (see #clearChangedAccounts). */
  #endpoints = new Map<string, AccountEndpoint>();
  #catalog: CatalogEntry[] = [];

  constructor(config: Config, store: Store, options: RuntimeOptions) {
    this.now = options.now;
    const limits = config.limits;
    this.clients = new ProviderClients(options.env ?? (() => undefined), {
      maxConnections: limits.maxConnections,
      poolWaitMs: limits.poolWaitTimeoutMs,
      maxHeadBytes: limits.maxHeaderBytes,
    });
    this.control = new ControlPlane(config, store, this.now);
    this.subscriptions = new Subscriptions({
      repo: store.credentials,
      fetcher: options.oauthFetch ?? fetch,
      now: this.now,
      // The rotated credential is in the database: reload so every reader (and the redactor) has it.
      onRotated: () => this.control.reload("local"),
      onNewSecret: () => this.control.secretsChanged(),
      onQuota: (providerId, windows) => this.routing.quota.observeWindows(providerId, windows, this.now()),
    });
    this.control.addSecretSource(() => this.subscriptions.liveSecrets());
    this.writer = new BatchedWriter(store);
    this.cluster = new ClusterSync(
      store.cluster,
      options.processLabel ?? "main",
      this.now,
      () => store.changeSignal(),
    );
    this.routing = new RoutingService(store, this.writer, this.now(), this.cluster);
    // Queued usage rows are written before the budget guard re-reads spend on a reload (a new budget counts them).
    this.control.onReload(() => this.writer.flush());
    this.budgets = new BudgetGuard(this.control, store, this.now(), this.cluster, this.now);
    this.rateSync = new RateLimitSync({
      limiter: this.limiter,
      repo: store.rateCounts,
      origin: this.cluster.origin,
      processes: () => this.cluster.peers + 1,
      limitsOf: (scope) => this.control.rateLimitsOf(scope),
      now: this.now,
    });
    // A key's last use is remembered in memory by authentication and written with the next batch.
    this.control.onKeyUsed(() =>
      this.writer.enqueue(() => {
        const uses = this.control.takeLastUsed();
        if (uses.length > 0) store.keys.touchLastUsed(uses);
      })
    );
    this.savers = new SaverService(store, this.writer, options.fetch ?? fetch);
    this.recorder = new UsageRecorder(
      store,
      this.writer,
      this.budgets,
      this.control.pricing,
      (texts, longStrings) => this.#counter.count(texts, longStrings),
    );
    this.#rebuild();
    this.routing.quota.seed((accountId, since) => store.usage.accountSince(accountId, since), this.now());
    this.control.onReload(() => this.#rebuild());
    this.responses = new ResponseStore({
      repo: store.storedResponses,
      now: this.now,
      settings: () => this.control.settings,
      redact: (text) => this.control.redactor.redact(text),
      redactLong: (pieces) => this.#longRedactor.redact(this.control.redactor.source, pieces),
      parseStored: options.parseStored ?? parseHere,
    });
    this.responses.sweep();
    this.dispatcher = new Dispatcher({
      control: this.control,
      table: () => this.#table,
      routing: this.routing,
      clients: this.clients,
      subscriptions: this.subscriptions,
      recorder: this.recorder,
      budgets: this.budgets,
      rateGate: new RateGate({
        limiter: this.limiter,
        limitsOf: (identity) =>
          identity.kind === "db"
            ? this.control.keyRateLimits(identity.keyId)
            : this.control.defaultRateLimits,
        now: this.now,
        nextSync: () => this.cluster.peers > 0 ? this.rateSync.nextTick() : null,
      }),
      now: this.now,
      spans: options.spans ?? noopRequestSpanSink((bytes) => crypto.getRandomValues(bytes)),
      newId: () => crypto.randomUUID().replaceAll("-", ""),
      timeouts: options.timeouts ?? { headersMs: limits.responseTimeoutMs, idleMs: limits.idleTimeoutMs },
      limits: {
        maxAnswerBytes: limits.maxAnswerBytes,
        maxStreamEventChars: limits.maxStreamEventChars,
        firstContentMs: limits.firstContentTimeoutMs,
        maxStreamDurationMs: limits.maxStreamDurationMs,
      },
      observers: this.observers,
      savers: this.savers,
      turnTokens: new TurnTokenStore(store.turnTokens, this.writer, this.now),
      responses: this.responses,
      counter: this.#counter,
    });
  }

  /** The off-thread token counter (count_tokens, stream input estimates). */
  get tokenCounter(): TokenCounter {
    return this.#counter;
  }

  /** The current routing table. */
  get table(): RoutingTable {
    return this.#table;
  }

  /** Every routable model and combo with its kind (what `/v1/models` lists to an unrestricted key). */
  get catalog(): readonly CatalogEntry[] {
    return this.#catalog;
  }

  /** Models an identity may see. */
  visibleModels(identity: ClientIdentity): CatalogEntry[] {
    let ids = this.#catalog.map((e) => e.id);
    const allowlists = identityAllowlists(identity);
    if (allowlists.length === 0) return this.#catalog;
    for (const allowlist of allowlists) ids = filterModelList(allowlist, ids, this.#table);
    const visible = new Set(ids);
    return this.#catalog.filter((e) => visible.has(e.id));
  }

  /**
   * Stops background work, flushes pending writes (rows waiting for the tokenizer included) and closes
   * every provider client.
   */
  async close(): Promise<void> {
    this.control.stop();
    await this.recorder.settled();
    this.rateSync.stop();
    this.cluster.stop();
    this.writer.close();
    this.clients.closeAll();
    this.#counter.close();
    this.#longRedactor.close();
  }

  #rebuild(): void {
    const providers = this.control.providers;
    const accounts = this.control.accounts;
    this.#clearChangedAccounts(accounts);
    this.#table = buildRoutingTable(
      accounts.map((p) => ({
        id: p.id,
        prefix: p.prefix,
        apiType: p.apiType,
        models: p.models,
        enabled: p.enabled,
        ...(p.kinds === undefined ? {} : { kinds: p.kinds }),
      })),
      this.control.combos,
    );
    this.#catalog = modelCatalog(providers, this.control.combos);
    this.routing.quota.setLimits(
      new Map(accounts.flatMap((a) => {
        const limits = accountLimits(a);
        return limits === null ? [] : [[a.id, limits] as const];
      })),
      this.now(),
    );
    this.recorder?.setOverrides(this.control.pricing);
    this.clients.retain(new Set(accounts.filter((p) => p.enabled).map((p) => p.clientId)));
  }

  /**
   * An account whose key, base URL or protocol changed is a new account as far as its failures go: a wrong
   * key fixed in the dashboard or the CLI serves the very next request instead of waiting out the cooldown
   * the wrong key earned. Every process runs this on its own reload. A subscription's credential is not
   * compared: each refresh rotates it, and a refresh must not lift a usage-limit cooldown.
   */
  #clearChangedAccounts(accounts: readonly AccountConfig[]): void {
    const previous = this.#endpoints;
    const next = new Map<string, AccountEndpoint>();
    for (const account of accounts) {
      const endpoint: AccountEndpoint = {
        apiType: account.apiType,
        baseUrl: account.baseUrl,
        key: oauthKind(account.apiType) === null ? account.apiKey : "",
      };
      next.set(account.id, endpoint);
      const before = previous.get(account.id);
      if (
        before !== undefined &&
        (before.apiType !== endpoint.apiType || before.baseUrl !== endpoint.baseUrl ||
          before.key !== endpoint.key)
      ) {
        this.routing.clearAccount(account.id);
      }
    }
    this.#endpoints = next;
  }
}

/** What an account's failures depend on: where it is called and with which key. */
interface AccountEndpoint {
  readonly apiType: string;
  readonly baseUrl: string;
  /** The API key; empty for subscription kinds (their credential rotates on every refresh). */
  readonly key: string;
}

/**
 * An account's limits for routing: the provider's configured quota, with the rpm/rpd an inventory key's
 * check read from its upstream's headers taking precedence for that key's account.
 */
function accountLimits(account: AccountConfig): AccountLimits | null {
  const quota: ProviderQuota | undefined = account.quota;
  const rpm = account.rateLimitRpm ?? quota?.rpm;
  const rpd = account.rateLimitRpd ?? quota?.rpd;
  if (quota === undefined && rpm === undefined && rpd === undefined) return null;
  return { rpm, rpd, quotas: quota?.windows ?? [] };
}

/** Stored JSON parts parsed on this thread (a runtime without the HTTP layer's parser: tests, tools). */
function parseHere(parts: Uint8Array<ArrayBuffer>[]): Promise<ParsedJson> {
  return Promise.resolve({ value: JSON.parse(decodeUtf8Parts(parts)) });
}
