import type { Database } from "./database.ts";
import type { SqlStatement } from "./sql.ts";

/** One message another gateway process on the same database published. */
export interface ClusterEvent {
  readonly id: number;
  readonly origin: string;
  readonly kind: string;
  readonly payload: string;
}

/** Reads the events other processes publish, each one exactly once, oldest first. */
export interface EventCursor {
  /** The events from processes other than `origin` that this cursor has not returned yet. */
  next(origin: string, limit?: number): ClusterEvent[];
}

/**
 * SQLite: `id > last` is enough. SQLite has one writer at a time and a transaction holds the write lock
 * from its first write to its commit, so ids are assigned in commit order: no row with a lower id can
 * become visible after a higher one was read.
 */
export class IdCursor implements EventCursor {
  readonly #db: Database;
  #lastId: number;
  /** Prepared once: with several processes the budget check reads before every budgeted request. */
  #read: SqlStatement | undefined;

  /** Starts after the newest event: older ones are already reflected in the tables a process loads. */
  constructor(db: Database) {
    this.#db = db;
    const row = db.prepare("SELECT coalesce(max(id), 0) AS id FROM cluster_events").get() as { id: number };
    this.#lastId = Number(row.id);
  }

  next(origin: string, limit = 1000): ClusterEvent[] {
    this.#read ??= this.#db.prepare(
      "SELECT id, origin, kind, payload FROM cluster_events WHERE id > ? AND origin <> ? ORDER BY id LIMIT ?",
    );
    const rows = this.#read.all(this.#lastId, origin, limit) as unknown as ClusterEvent[];
    const events = rows.map((r) => ({ ...r, id: Number(r.id) }));
    if (events.length > 0) this.#lastId = events[events.length - 1].id;
    return events;
  }
}

interface XidRow {
  id: number | null;
  origin: string;
  kind: string;
  payload: string;
  xmax: string;
  xip: string;
}

/** The snapshot of the last read: `xmax` as text, `xip` as a PostgreSQL array literal of xid8. */
const SNAPSHOT = `SELECT pg_snapshot_xmax(c.snap)::text AS xmax,
    (SELECT coalesce(array_agg(x)::text, '{}') FROM pg_snapshot_xip(c.snap) AS x) AS xip
  FROM (SELECT pg_current_snapshot() AS snap) AS c`;

/**
 * PostgreSQL: writers on different connections take ids from one sequence but commit in any order, so
 * `id > last` would skip for good an event whose transaction took a lower id and committed later (a lost
 * spend or cooldown). Each row records the transaction that wrote it (`writer_xid`, a default of
 * `pg_current_xact_id()`), and the cursor keeps the snapshot of its last read. The rows that read could
 * not see are exactly those whose writer was still running then (the snapshot's `xip` list) or had not
 * started (at or above its `xmax`); the next read asks for those alone, with a new snapshot taken by the
 * same statement. So every committed event is returned once, and nothing is re-read.
 */
export class XidCursor implements EventCursor {
  readonly #db: Database;
  #xmax: string;
  #xip: string;
  /** Rows of the last read beyond the caller's limit, returned before reading again. */
  #pending: ClusterEvent[] = [];

  /** Starts after what is visible now: older events are already reflected in the tables a process loads. */
  constructor(db: Database) {
    this.#db = db;
    const row = db.prepare(SNAPSHOT).get() as { xmax: string; xip: string };
    this.#xmax = row.xmax;
    this.#xip = row.xip;
  }

  next(origin: string, limit = 1000): ClusterEvent[] {
    if (this.#pending.length === 0) {
      // The LEFT JOIN yields one row of nulls when nothing matches, so the new snapshot always arrives.
      const rows = this.#db.prepare(
        `SELECT e.id, e.origin, e.kind, e.payload, s.xmax, s.xip FROM (${SNAPSHOT}) AS s
         LEFT JOIN LATERAL (
           SELECT id, origin, kind, payload FROM cluster_events
           WHERE (writer_xid >= ?::xid8 OR writer_xid = ANY(?::xid8[])) AND origin <> ? ORDER BY id
         ) AS e ON true`,
      ).all(this.#xmax, this.#xip, origin) as unknown as XidRow[];
      this.#xmax = rows[0].xmax;
      this.#xip = rows[0].xip;
      this.#pending = rows.filter((r) => r.id !== null).map((r) => ({
        id: Number(r.id),
        origin: r.origin,
        kind: r.kind,
        payload: r.payload,
      }));
    }
    return this.#pending.splice(0, limit);
  }
}
