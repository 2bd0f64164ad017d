import { DISPLAY_PREFIX_LENGTH, generateApiKey, hashApiKey } from "../../security/api_key.ts";
import type { ApiKeyRecord, KeyLimits, KeyRole, Store } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

const MODEL_ENTRY = /^(?:[^/\s]+\/(?:\*|\S+)|[^/\s*]+)$/;

/** Input for a new key. */
export interface NewKeyInput {
  readonly name: string;
  readonly canLogin: boolean;
  readonly allowedModels: readonly string[];
  readonly dailyBudget?: number;
  /** Explicit dashboard role; absent or null follows the allowlist (viewer when it limits models). */
  readonly role?: KeyRole | null;
  /** The key group it joins (its limits and allowlist bound the key). */
  readonly groupId?: number | null;
  /** Own rate limits (null: inherit the group's, else the default). */
  readonly limits?: Partial<KeyLimits>;
  /** When it stops working (epoch ms); null or absent: never. */
  readonly expiresAt?: number | null;
}

/** How long a rotated key's previous secret keeps working unless said otherwise: one day. */
export const DEFAULT_ROTATION_GRACE_MS = 86_400_000;

/**
 * Checks rate limits: whole numbers of at least 1, or null (inherit). Returns only the limits given
 * (undefined when none is), so an update leaves the others as they are.
 */
export function validateLimits(limits: Partial<KeyLimits>): Partial<KeyLimits> | undefined {
  const fields = [["rpm", "rpm"], ["tpm", "tpm"], ["maxParallel", "max_parallel"]] as const;
  const given: { -readonly [K in keyof KeyLimits]?: number | null } = {};
  for (const [name, field] of fields) {
    const value = limits[name];
    if (value === undefined) continue;
    if (value !== null && (!Number.isInteger(value) || value < 1)) {
      throw invalidField(field, "must be a whole number of at least 1, or null to inherit");
    }
    given[name] = value;
  }
  return Object.keys(given).length === 0 ? undefined : given;
}

/** Checks an expiry: an instant after now, or null (never). */
export function validateExpiry(expiresAt: number | null | undefined, now: number): number | null | undefined {
  if (expiresAt === undefined || expiresAt === null) return expiresAt;
  if (!Number.isFinite(expiresAt) || expiresAt <= now) {
    throw invalidField("expires_at", "must be a time in the future (or null: never)");
  }
  return expiresAt;
}

function validateGroup(store: Store, groupId: number | null | undefined): number | null | undefined {
  if (groupId === undefined || groupId === null) return groupId;
  if (store.keyGroups.get(groupId) === undefined) {
    throw invalidField("group", `key group ${groupId} does not exist`);
  }
  return groupId;
}

/** A new key with its plaintext, which is shown once and never stored. */
export interface CreatedKey {
  readonly record: ApiKeyRecord;
  readonly plaintext: string;
  readonly dailyBudget: number | null;
}

/** Checks a key name: 1–100 printable characters. */
export function validateKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > 100 || [...trimmed].some((ch) => ch.charCodeAt(0) < 32)) {
    throw invalidField("name", "must be 1 to 100 printable characters");
  }
  return trimmed;
}

/** Parses and checks an allowlist: exact `<prefix>/<model>`, `<prefix>/*` or a combo name. */
export function validateAllowedModels(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (!MODEL_ENTRY.test(entry)) {
      throw invalidField("models", `"${entry}" is not <prefix>/<model>, <prefix>/* or a combo name`);
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

/** Checks a daily budget in USD: a finite number above zero. */
export function validateBudget(value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw invalidField("daily_budget", "must be a number greater than 0 (USD)");
  }
  return value;
}

/** Creates a DB key (and its daily budget) in one transaction. */
export function createKey(store: Store, input: NewKeyInput, now: number): CreatedKey {
  const name = validateKeyName(input.name);
  const allowedModels = validateAllowedModels(input.allowedModels);
  const dailyBudget = input.dailyBudget === undefined ? null : validateBudget(input.dailyBudget);
  const limits = input.limits === undefined ? undefined : validateLimits(input.limits);
  const expiresAt = validateExpiry(input.expiresAt, now);
  const groupId = validateGroup(store, input.groupId);
  const plaintext = generateApiKey();
  const record = store.transaction(() => {
    let created = store.keys.create({
      name,
      keyHash: hashApiKey(plaintext),
      prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH),
      canLogin: input.canLogin,
      allowedModels,
      role: input.role ?? null,
    }, now);
    if (limits !== undefined || expiresAt != null || groupId != null) {
      created = store.keys.update(created.id, { limits, expiresAt, groupId }, now) ?? created;
    }
    if (dailyBudget !== null) store.budgets.set(created.id, dailyBudget, 80, now);
    return created;
  });
  return { record, plaintext, dailyBudget };
}

/** Changes to an existing key; `dailyBudget: null` removes its budget. */
export interface KeyUpdate {
  readonly name?: string;
  readonly canLogin?: boolean;
  readonly allowedModels?: readonly string[];
  readonly dailyBudget?: number | null;
  /** `null` returns the key to the default role. */
  readonly role?: KeyRole | null;
  /** null takes the key out of its group. */
  readonly groupId?: number | null;
  /** Each limit given replaces the key's own (null: inherit). */
  readonly limits?: Partial<KeyLimits>;
  /** null: never expires. */
  readonly expiresAt?: number | null;
}

/** Updates a key and its budget in one transaction; 404 when it does not exist. */
export function updateKey(store: Store, id: number, update: KeyUpdate, now: number): ApiKeyRecord {
  const name = update.name === undefined ? undefined : validateKeyName(update.name);
  const allowedModels = update.allowedModels === undefined
    ? undefined
    : validateAllowedModels(update.allowedModels);
  const budget = update.dailyBudget === undefined || update.dailyBudget === null
    ? update.dailyBudget
    : validateBudget(update.dailyBudget);
  const limits = update.limits === undefined ? undefined : validateLimits(update.limits);
  const expiresAt = validateExpiry(update.expiresAt, now);
  const groupId = validateGroup(store, update.groupId);
  return store.transaction(() => {
    const updated = store.keys.update(id, {
      name,
      canLogin: update.canLogin,
      allowedModels,
      role: update.role,
      limits,
      expiresAt,
      groupId,
    }, now);
    if (!updated) throw notFound(`API key ${id} does not exist`);
    if (budget === null) store.budgets.deleteScope(id);
    else if (budget !== undefined) {
      store.budgets.set(id, budget, store.budgets.forScope(id)?.warnPct ?? 80, now);
    }
    return updated;
  });
}

/** Revokes a key; 404 when it does not exist. */
export function revokeKey(store: Store, id: number, now: number): void {
  if (!store.keys.revoke(id, now)) throw notFound(`API key ${id} does not exist`);
}

/**
 * Client API keys as the dashboard and the CLI change them: every change also ends the dashboard sessions
 * a key may no longer hold, then reloads.
 */
export class KeyService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Every DB key, newest state from the database. */
  list(): ApiKeyRecord[] {
    return this.#deps.store.keys.list();
  }

  /** The key a reference names: its id, else its name; undefined when none. */
  find(ref: string): ApiKeyRecord | undefined {
    const { keys } = this.#deps.store;
    return (/^\d+$/.test(ref) ? keys.get(Number(ref)) : undefined) ?? keys.findByName(ref);
  }

  /** Creates a key; its plaintext is in the result once. */
  create(input: NewKeyInput): CreatedKey {
    const created = createKey(this.#deps.store, input, this.#deps.now());
    this.#deps.reload();
    return created;
  }

  /** Updates a key; turning off its sign-in ends its dashboard sessions. */
  update(id: number, update: KeyUpdate): ApiKeyRecord {
    const updated = updateKey(this.#deps.store, id, update, this.#deps.now());
    if (!updated.canLogin) this.#deps.store.sessions.deleteForKey(id);
    this.#deps.reload();
    return updated;
  }

  /**
   * Gives a key a new secret with the same id and settings; the old secret keeps working for `graceMs`
   * (0: not at all). The new plaintext is in the result once.
   */
  rotate(id: number, graceMs = DEFAULT_ROTATION_GRACE_MS): { record: ApiKeyRecord; plaintext: string } {
    if (!Number.isFinite(graceMs) || graceMs < 0) {
      throw invalidField("grace", "must be a duration of 0 or more");
    }
    const { store } = this.#deps;
    const current = store.keys.get(id);
    if (!current || current.status !== "active") throw notFound(`API key ${id} does not exist or is revoked`);
    const now = this.#deps.now();
    const plaintext = generateApiKey();
    const record = store.keys.rotate(id, {
      keyHash: hashApiKey(plaintext),
      prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH),
      graceUntil: now + graceMs,
    }, now);
    if (!record) throw notFound(`API key ${id} does not exist`);
    this.#deps.reload();
    return { record, plaintext };
  }

  /** Revokes a key and ends its dashboard sessions; returns the revoked record. */
  revoke(id: number): ApiKeyRecord {
    const { store } = this.#deps;
    revokeKey(store, id, this.#deps.now());
    store.sessions.deleteForKey(id);
    this.#deps.reload();
    return store.keys.get(id)!;
  }
}
