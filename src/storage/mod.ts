/** Storage: the only place with SQL. One repository per table family behind a narrow interface. */
import { ApiKeysRepo } from "./api_keys_repo.ts";
import { AuditLogRepo } from "./audit_log_repo.ts";
import { BudgetsRepo } from "./budgets_repo.ts";
import { KeyGroupsRepo } from "./key_groups_repo.ts";
import { RateCountsRepo } from "./rate_counts_repo.ts";
import { CombosRepo } from "./combos_repo.ts";
import { CooldownsRepo } from "./cooldowns_repo.ts";
import { CacheAffinityRepo } from "./cache_affinity_repo.ts";
import { type Database, openDatabase, sealedSample, transaction } from "./database.ts";
import { PricingRepo } from "./pricing_repo.ts";
import { ProvidersRepo } from "./providers_repo.ts";
import { CredentialsRepo } from "./credentials_repo.ts";
import { loadSecretBox, type SecretBox } from "./secret_box.ts";
import { SettingsRepo } from "./settings_repo.ts";
import { UsageRepo } from "./usage_repo.ts";
import { RequestLogsRepo } from "./request_logs_repo.ts";
import { RequestsRepo } from "./requests_repo.ts";
import { DashboardSessionsRepo } from "./dashboard_sessions_repo.ts";
import { InventoryRepo } from "./inventory_repo.ts";
import { InventoryChecksRepo } from "./inventory_checks_repo.ts";
import { UsageStatsRepo } from "./usage_stats_repo.ts";
import { SaverStatsRepo } from "./saver_stats_repo.ts";
import { TurnTokensRepo } from "./turn_tokens_repo.ts";
import { StoredResponsesRepo } from "./stored_responses_repo.ts";
import { ClusterRepo } from "./cluster_repo.ts";
import { SigninSessionsRepo } from "./signin_sessions_repo.ts";
import { SsoLoginsRepo } from "./sso_logins_repo.ts";
import { PgDatabase } from "./postgres/pg_database.ts";
import { migratePostgres } from "./postgres/pg_migrate.ts";

export {
  type ApiKeyChanges,
  type ApiKeyRecord,
  type KeyLimits,
  type KeyRole,
  NO_LIMITS,
} from "./api_keys_repo.ts";
export type {
  BudgetAlertRecord,
  BudgetPeriodKind,
  BudgetRecord,
  BudgetScope,
  BudgetWebhook,
  PeriodBudgetInput,
  PeriodBudgetRecord,
} from "./budgets_repo.ts";
export type { KeyGroupInput, KeyGroupRecord, KeyGroupsRepo } from "./key_groups_repo.ts";
export type { AuditActorKind, AuditEntry, AuditFilter, AuditLogRepo, AuditRecord } from "./audit_log_repo.ts";
export type { RateCountRow, RateCountsRepo } from "./rate_counts_repo.ts";
export { DuplicateNameError } from "./duplicate_name.ts";
export type { ComboRecord } from "./combos_repo.ts";
export type { CooldownRecord } from "./cooldowns_repo.ts";
export type { AffinityRecord, CacheAffinityRepo } from "./cache_affinity_repo.ts";
export type { UsageRow } from "./usage_repo.ts";
export type { RequestLogInput, RequestLogRecord, RequestLogSummary } from "./request_logs_repo.ts";
export { statusClassOf } from "./requests_repo.ts";
export type {
  ChainAttempt,
  RequestCursor,
  RequestFilter,
  RequestPage,
  RequestRow,
  RequestRowInput,
  StatusClass,
} from "./requests_repo.ts";
export type { DashboardSession, SsoSessionIdentity } from "./dashboard_sessions_repo.ts";
export { type SsoLoginSecrets, SsoLoginsRepo, type SsoPendingLogin } from "./sso_logins_repo.ts";
export type {
  InventoryCount,
  KeyFilter,
  NewUpstreamKey,
  RoutableKey,
  UpstreamKeyView,
} from "./inventory_repo.ts";
export type { CheckRecord, KeyHistoryRow, KeyToCheck } from "./inventory_checks_repo.ts";
export {
  type ClientTotals,
  type DailyTotals,
  DAY_MS,
  type GroupTotals,
  type HourlyTotals,
  type KeyUsage,
  type KindFilter,
  type LatencyPercentiles,
  type UnpricedModel,
  type UsageDimension,
  type UsageTotals,
} from "./usage_stats_repo.ts";
export type { SaverStat } from "./saver_stats_repo.ts";
export type { ClusterEvent, EventCursor } from "./cluster_repo.ts";
export { type Database, openDatabase, sealedSample, transaction } from "./database.ts";
export { loadSecretBox, SecretBox, SecretKeyError } from "./secret_box.ts";
export { servedConfig, type SqliteFacts, sqliteFacts } from "./diagnostics.ts";
export {
  replaceFromConfig,
  SAVER_SETTING_KEYS,
  saverSettings,
  seedFromConfig,
  type SeedReport,
} from "./seed.ts";
export { PgDatabase, PostgresError } from "./postgres/pg_database.ts";
export { loadPgMigrations } from "./postgres/pg_migrate.ts";
export { type PgServerFacts, pgServerFacts, pgWriteProbe } from "./postgres/pg_diagnostics.ts";
export type { SqlDatabase } from "./sql.ts";
export { loadMigrations, migrate } from "./migrate.ts";
export { TurnTokensRepo, type TurnTokensRow } from "./turn_tokens_repo.ts";
export {
  type StagedParts,
  type StoredResponseRecord,
  type StoredResponseRow,
  StoredResponsesRepo,
} from "./stored_responses_repo.ts";
export { type CredentialSlot, CredentialsRepo, type CredentialStateRecord } from "./credentials_repo.ts";
export {
  type SigninEndStatus,
  type SigninRecord,
  type SigninRowStatus,
  type SigninSecrets,
  SigninSessionsRepo,
} from "./signin_sessions_repo.ts";

/** Whether a storage location is a PostgreSQL URL rather than a SQLite file path. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

function openPostgres(url: string, callTimeoutMs?: number): PgDatabase {
  const db = PgDatabase.connect(url, callTimeoutMs);
  try {
    migratePostgres(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Every repository over one database handle. */
export class Store {
  readonly db: Database;
  readonly keys: ApiKeysRepo;
  readonly settings: SettingsRepo;
  readonly providers: ProvidersRepo;
  readonly combos: CombosRepo;
  readonly pricing: PricingRepo;
  readonly budgets: BudgetsRepo;
  /** Key groups (teams, projects): limits, budgets and allowlists their keys inherit. */
  readonly keyGroups: KeyGroupsRepo;
  /** The append-only audit log of management changes and sign-ins. */
  readonly audit: AuditLogRepo;
  /** Rate-limit counts shared by the processes on the database. */
  readonly rateCounts: RateCountsRepo;
  readonly cooldowns: CooldownsRepo;
  readonly cacheAffinity: CacheAffinityRepo;
  readonly usage: UsageRepo;
  readonly requestLogs: RequestLogsRepo;
  /** The request log's index: one row per client request, filtered a keyset page at a time. */
  readonly requests: RequestsRepo;
  readonly sessions: DashboardSessionsRepo;
  readonly inventory: InventoryRepo;
  readonly inventoryChecks: InventoryChecksRepo;
  readonly usageStats: UsageStatsRepo;
  readonly saverStats: SaverStatsRepo;
  /** Opaque upstream tokens of tool calls, restored into replayed history. */
  readonly turnTokens: TurnTokensRepo;
  /** The Responses API's stored responses (`store: true`), shared by every process on the database. */
  readonly storedResponses: StoredResponsesRepo;
  readonly cluster: ClusterRepo;
  /** Subscription credential state, refresh leases and rotation write-back. */
  readonly credentials: CredentialsRepo;
  /** Subscription sign-ins in progress, shared by every process on the database (secrets sealed). */
  readonly signins: SigninSessionsRepo;
  /** Dashboard single sign-ons in progress, shared by every process on the database (secrets sealed). */
  readonly ssoLogins: SsoLoginsRepo;
  /** The credential sealer (dashboard Reset re-seeds providers with it). */
  readonly box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.db = db;
    this.keys = new ApiKeysRepo(db);
    this.settings = new SettingsRepo(db);
    this.providers = new ProvidersRepo(db, box);
    this.combos = new CombosRepo(db);
    this.pricing = new PricingRepo(db);
    this.budgets = new BudgetsRepo(db, box);
    this.keyGroups = new KeyGroupsRepo(db);
    this.audit = new AuditLogRepo(db);
    this.rateCounts = new RateCountsRepo(db);
    this.cooldowns = new CooldownsRepo(db);
    this.cacheAffinity = new CacheAffinityRepo(db, db instanceof PgDatabase);
    this.usage = new UsageRepo(db, db instanceof PgDatabase);
    this.requestLogs = new RequestLogsRepo(db, db instanceof PgDatabase);
    this.requests = new RequestsRepo(db, db instanceof PgDatabase);
    this.sessions = new DashboardSessionsRepo(db);
    this.inventory = new InventoryRepo(db, box);
    this.inventoryChecks = new InventoryChecksRepo(db, box);
    this.usageStats = new UsageStatsRepo(db);
    this.saverStats = new SaverStatsRepo(db);
    this.turnTokens = new TurnTokensRepo(db, db instanceof PgDatabase);
    this.storedResponses = new StoredResponsesRepo(db);
    this.cluster = new ClusterRepo(db, db instanceof PgDatabase);
    this.credentials = new CredentialsRepo(db, box);
    this.signins = new SigninSessionsRepo(db, box);
    this.ssoLogins = new SsoLoginsRepo(db, box);
    this.box = box;
  }

  /** Opens the database file and wraps it. */
  static open(path: string, box: SecretBox): Store {
    return new Store(openDatabase(path), box);
  }

  /**
   * Opens the database and its secret key together: the key is checked against a credential the database
   * already holds, and a missing key file is created only for a database with nothing sealed in it.
   * `path` is the SQLite file, or a `postgres://` URL (migrated on open, like the file); `callTimeoutMs`
   * bounds each PostgreSQL call (default CALL_TIMEOUT_MS: a server's event loop must not stall long).
   */
  static openWithSecret(
    path: string,
    keyPath: string,
    envKey: string | undefined,
    options: { readonly callTimeoutMs?: number } = {},
  ): Store {
    const db: Database = isPostgresUrl(path) ? openPostgres(path, options.callTimeoutMs) : openDatabase(path);
    try {
      return new Store(db, loadSecretBox(keyPath, envKey, sealedSample(db)));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: () => T): T {
    return transaction(this.db, work);
  }

  /**
   * Runs batched writes (usage rows, cooldowns, logs) in one transaction. On PostgreSQL the batch is
   * handed to the bridge worker and committed while the caller goes on; `settleWrites` waits for it.
   */
  writeBatch(work: () => void): void {
    if (this.db instanceof PgDatabase) this.db.deferWrites(work);
    else transaction(this.db, work);
  }

  /** Waits until every batch handed off by writeBatch is committed (no-op on SQLite, which commits inline). */
  settleWrites(): void {
    if (this.db instanceof PgDatabase) this.db.drain();
  }

  /**
   * A number that changes when another process may have changed something (PostgreSQL's NOTIFY), or
   * null when there is no such signal (SQLite): then callers poll.
   */
  changeSignal(): number | null {
    return this.db instanceof PgDatabase ? this.db.news : null;
  }

  /** Closes the handle (after committing handed-off batches). */
  close(): void {
    if (!this.db.isOpen) return;
    try {
      this.settleWrites();
    } finally {
      // Closed even when the writes could not be settled (PostgreSQL unreachable): the close reports them.
      this.db.close();
    }
  }
}
