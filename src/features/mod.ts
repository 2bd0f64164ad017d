/**
 * The management layer: every change to providers, combos, budgets, pricing, settings, keys, the
 * inventory and the config file goes through these services (validate → write through the repositories
 * → reload). The dashboard routes and the CLI both use them; neither writes to storage itself.
 */
import { AuditTrail } from "./audit/service.ts";
import { BudgetService } from "./budgets/service.ts";
import { ComboService } from "./combos/service.ts";
import { ConfigFileService } from "./backup/service.ts";
import type { ManagementDeps } from "./deps.ts";
import { GroupService } from "./groups/service.ts";
import { InventoryService } from "./inventory/service.ts";
import { InventoryChecks } from "./inventory/checks.ts";
import { KeyService } from "./keys/service.ts";
import { PricingService } from "./pricing/service.ts";
import { ProviderService } from "./providers/service.ts";
import { RequestLogService } from "./request_logs/service.ts";
import { SettingsService } from "./settings/service.ts";

export type { ManagementDeps } from "./deps.ts";
export type { AuditActor, AuditedChange, AuditTrail, PendingChange } from "./audit/service.ts";
export {
  type BudgetReport,
  budgetReport,
  type PeriodBudgetSettings,
  type PeriodBudgetStatusOf,
  type SpendToday,
} from "./budgets/service.ts";
export type { GroupInput } from "./groups/service.ts";
export type { CallHints, ProviderChanges, ProviderInput } from "./providers/service.ts";
export { withCallHints } from "./providers/service.ts";
export type { SettingsChange } from "./settings/service.ts";
export {
  type CheckRequest,
  type IngestReport,
  type IngestResult,
  MAX_BATCH,
  MAX_IMPORT,
  type SubmittedKey,
} from "./inventory/service.ts";
export { SubmitLimiter } from "./inventory/submit_limiter.ts";
export {
  type CreatedKey,
  createKey,
  type KeyUpdate,
  type NewKeyInput,
  revokeKey,
  updateKey,
} from "./keys/service.ts";
export { invalidField, notFound } from "./field_error.ts";

/** All management services over one set of dependencies. */
export class Management {
  readonly providers: ProviderService;
  readonly combos: ComboService;
  readonly budgets: BudgetService;
  readonly pricing: PricingService;
  readonly settings: SettingsService;
  readonly keys: KeyService;
  readonly groups: GroupService;
  readonly inventory: InventoryService;
  readonly requestLogs: RequestLogService;
  readonly configFile: ConfigFileService;
  /** The audit trail every change and sign-in is written to. */
  readonly audit: AuditTrail;

  constructor(deps: ManagementDeps, options: { fetch?: typeof fetch } = {}) {
    this.inventory = new InventoryService(deps, new InventoryChecks(deps, options.fetch));
    // A provider's own key is mirrored into the inventory whenever providers change.
    const mirrored = { ...deps, reload: () => (this.inventory.syncMirrors(), deps.reload()) };
    this.providers = new ProviderService(mirrored);
    this.combos = new ComboService(deps);
    this.budgets = new BudgetService(deps);
    this.pricing = new PricingService(deps);
    this.settings = new SettingsService(deps);
    this.keys = new KeyService(deps);
    this.groups = new GroupService(deps);
    this.requestLogs = new RequestLogService(deps);
    this.configFile = new ConfigFileService(mirrored);
    this.audit = new AuditTrail(deps.store, deps.now);
  }

  /** Stops background work (key checks). */
  close(): Promise<void> {
    return this.inventory.checks.close();
  }
}
