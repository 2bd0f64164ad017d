import type { Database } from "./database.ts";

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
    const rows = this.#db.prepare(
      "SELECT id, origin, kind, payload FROM cluster_events WHERE id > ? AND origin <> ? ORDER BY id LIMIT ?",
    ).all(afterId, origin, limit) as unknown as ClusterEvent[];
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** The newest event id (a new process starts reading after it: older events are already in the tables). */
  lastEventId(): number {
    const row = this.#db.prepare("SELECT coalesce(max(id), 0) AS id FROM cluster_events").get() as {
      id: number;
    };
    return Number(row.id);
  }

  /** Records that a process is alive. */
  heartbeat(origin: string, label: string, now: number): void {
    this.#db.prepare(
      `INSERT INTO cluster_members (origin, label, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (origin) DO UPDATE SET seen_at = excluded.seen_at, label = excluded.label`,
    ).run(origin, label, now);
  }

  /** Labels of the other processes seen since `since`. */
  peers(origin: string, since: number): string[] {
    const rows = this.#db.prepare("SELECT label FROM cluster_members WHERE origin <> ? AND seen_at >= ?")
      .all(origin, since) as unknown as { label: string }[];
    return rows.map((r) => r.label);
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
