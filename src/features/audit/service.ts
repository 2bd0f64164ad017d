import type { AuditActorKind, AuditFilter, AuditRecord, Store } from "../../storage/mod.ts";
import { type ManagedSnapshot, managedSnapshot, snapshotChange } from "./snapshot.ts";

/** Who acts and from where: a key, an SSO user, the CLI's OS user. */
export interface AuditActor {
  readonly actor: string;
  readonly actorKind: AuditActorKind;
  /** The client address ("" for the CLI). */
  readonly address: string;
}

/** What a change was called and what it was done to, when the caller knows (a route does, the CLI not). */
export interface AuditedChange {
  readonly action: string;
  readonly target: string;
  /** What was asked (a request body), kept when the change touched nothing the snapshot covers. */
  readonly request?: unknown;
}

/** An opened change: the state before it, to compare with the state after it. */
export interface PendingChange {
  readonly before: ManagedSnapshot;
}

/**
 * The audit trail of management changes and sign-ins. Every change is framed the same way: `begin` reads
 * the managed state, the change runs, `end` reads it again and appends one row with the entries that
 * differ (before → after; the repo redacts secrets). The dashboard/API middleware and the CLI's store
 * wrapper are the two callers, so a new route or command is covered without writing audit code.
 */
export class AuditTrail {
  readonly #store: Store;
  readonly #now: () => number;

  constructor(store: Store, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  begin(): PendingChange {
    return { before: managedSnapshot(this.#store) };
  }

  /**
   * Appends the row of a finished change. With `change` (a route) a row is always written, since the
   * request succeeded; without it (the CLI) only when the managed state changed, named after what changed.
   */
  end(pending: PendingChange, who: AuditActor, change?: AuditedChange): void {
    const diff = snapshotChange(pending.before, managedSnapshot(this.#store));
    if (diff === null && change === undefined) return;
    const [first] = diff?.targets ?? [];
    // A route's own target names an item (`keys:12`); a collection route (`POST /v2/keys`) says less than
    // the entries it changed.
    const named = change !== undefined && change.target.includes(":");
    const target = named || diff === null ? change?.target ?? "" : diff.targets.join(" ");
    const present = (state: ManagedSnapshot | undefined) =>
      state !== undefined && Object.keys(state).length > 0 ? state : undefined;
    this.#store.audit.append([{
      ts: this.#now(),
      ...who,
      action: change?.action ?? inferredAction(diff!.before, diff!.after, first),
      target,
      before: present(diff?.before),
      after: present(diff?.after) ??
        (change?.request === undefined ? undefined : { request: change.request }),
    }]);
  }

  /** A dashboard sign-in or a refused one (`how`: "api_key" or "sso"); `detail` says who or why. */
  signin(who: AuditActor, ok: boolean, how: string, detail: Record<string, unknown> = {}): void {
    this.#store.audit.append([{
      ts: this.#now(),
      ...who,
      action: ok ? "signin" : "signin.failed",
      target: how,
      after: detail,
    }]);
  }

  list(filter: AuditFilter): AuditRecord[] {
    return this.#store.audit.list(filter);
  }

  /** The retention sweep: rows older than `days` go. */
  prune(days: number): void {
    this.#store.audit.prune(this.#now() - days * 24 * 3600 * 1000);
  }
}

/** `keys.create` / `keys.update` / `keys.delete` from the first changed entry. */
function inferredAction(before: ManagedSnapshot, after: ManagedSnapshot, target: string): string {
  const [section, id] = [target.slice(0, target.indexOf(":")), target.slice(target.indexOf(":") + 1)];
  const had = before[section] !== undefined && id in before[section];
  const has = after[section] !== undefined && id in after[section];
  return `${section}.${had && has ? "update" : has ? "create" : "delete"}`;
}
