import type { Database } from "./database.ts";
import type { SqlStatement } from "./sql.ts";

/** One message another gateway process on the same database published. */
export interface ClusterEvent {
  readonly id: number;
  readonly origin: string;
  readonly kind: string;
  readonly payload: string;
}

/**
 * The tables through which gateway processes sharing one database tell each other what changed:
 * short-lived events, a heartbeat per process, and the configuration generation the triggers bump.
 */
export class ClusterRepo {
  readonly #db: Database;
  /** Prepared once: the budget check runs it before budgeted requests while other processes share the database. */
  #eventsAfter: SqlStatement | undefined;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Appends one event. */
  publish(origin: string, kind: string, payload: string, now: number): void {
    this.#db.prepare("INSERT INTO cluster_events (origin, kind, payload, created_at) VALUES (?, ?, ?, ?)")
      .run(origin, kind, payload, now);
  }

  /** Events after `afterId` published by other processes, oldest first. */
  eventsAfter(afterId: number, origin: string, limit = 1000): ClusterEvent[] {
    this.#eventsAfter ??= this.#db.prepare(
      "SELECT id, origin, kind, payload FROM cluster_events WHERE id > ? AND origin <> ? ORDER BY id LIMIT ?",
    );
    const rows = this.#eventsAfter.all(afterId, origin, limit) as unknown as ClusterEvent[];
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** The newest event id (a new process starts reading after it: older events are already in the tables). */
  lastEventId(): number {
    const row = this.#db.prepare("SELECT coalesce(max(id), 0) AS id FROM cluster_events").get() as {
      id: number;
    };
    return Number(row.id);
  }

  /** Records that a process is alive, and which optional channels it listens to. */
  heartbeat(origin: string, label: string, wants: readonly string[], now: number): void {
    this.#db.prepare(
      `INSERT INTO cluster_members (origin, label, seen_at, wants) VALUES (?, ?, ?, ?)
       ON CONFLICT (origin) DO UPDATE SET seen_at = excluded.seen_at, label = excluded.label,
         wants = excluded.wants`,
    ).run(origin, label, now, wants.join(","));
  }

  /** The other processes seen since `since`, with the optional channels each listens to. */
  peers(origin: string, since: number): { label: string; wants: string[] }[] {
    const rows = this.#db.prepare(
      "SELECT label, wants FROM cluster_members WHERE origin <> ? AND seen_at >= ?",
    ).all(origin, since) as unknown as { label: string; wants: string }[];
    return rows.map((r) => ({ label: r.label, wants: r.wants === "" ? [] : r.wants.split(",") }));
  }

  /** Removes a process that stops, so the others stop publishing for it at once. */
  leave(origin: string): void {
    this.#db.prepare("DELETE FROM cluster_members WHERE origin = ?").run(origin);
  }

  /** Deletes events and members older than `before`. */
  prune(before: number): void {
    this.#db.prepare("DELETE FROM cluster_events WHERE created_at < ?").run(before);
    this.#db.prepare("DELETE FROM cluster_members WHERE seen_at < ?").run(before);
  }

  /** The configuration generation: changes whenever a configuration table changes, in any process. */
  configGeneration(): number {
    const row = this.#db.prepare("SELECT value FROM config_generation WHERE id = 1").get() as
      | { value: number }
      | undefined;
    return Number(row?.value ?? 0);
  }
}
