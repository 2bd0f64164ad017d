import type { Database } from "./database.ts";

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

  /** Starts after the newest event: older ones are already reflected in the tables a process loads. */
  constructor(db: Database) {
    this.#db = db;
    const row = db.prepare("SELECT coalesce(max(id), 0) AS id FROM cluster_events").get() as { id: number };
    this.#lastId = Number(row.id);
  }

  next(origin: string, limit = 1000): ClusterEvent[] {
    const rows = this.#db.prepare(
      "SELECT id, origin, kind, payload FROM cluster_events WHERE id > ? AND origin <> ? ORDER BY id LIMIT ?",
    ).all(this.#lastId, origin, limit) as unknown as ClusterEvent[];
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
  xid: string | null;
  xmin: string;
}

/**
 * PostgreSQL: writers on different connections take ids from one sequence but commit in any order, so
 * `id > last` would skip for good an event whose transaction took a lower id and committed later (a lost
 * spend or cooldown). Each row records the transaction that wrote it (`writer_xid`, a default of
 * `pg_current_xact_id()`). Every read also takes its snapshot's `xmin`: every transaction below it has
 * ended, so no row with a lower `writer_xid` can appear later. The cursor re-reads rows from
 * transactions at or above the last `xmin` (the ones that might still have company coming) and skips the
 * ids it already returned; memory holds only the ids of that window, which pruning keeps short.
 */
export class XidCursor implements EventCursor {
  readonly #db: Database;
  /** Transactions below this had all ended at the last read. */
  #low: bigint;
  /** Ids already returned whose writer is at or above `#low`, with that writer. */
  readonly #seen = new Map<number, bigint>();

  /** Starts after what is visible now: older events are already reflected in the tables a process loads. */
  constructor(db: Database) {
    this.#db = db;
    // One statement, so the xmin and the rows come from the same snapshot.
    const rows = db.prepare(
      `SELECT s.xmin::text AS xmin, e.id, e.writer_xid::text AS xid
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin) s
       LEFT JOIN cluster_events e ON e.writer_xid >= s.xmin`,
    ).all() as unknown as XidRow[];
    this.#low = BigInt(rows[0].xmin);
    for (const r of rows) if (r.id !== null) this.#seen.set(Number(r.id), BigInt(r.xid!));
  }

  next(origin: string, limit = 1000): ClusterEvent[] {
    // The LEFT JOIN yields one row of nulls when nothing matches, so the snapshot's xmin always arrives.
    const rows = this.#db.prepare(
      `SELECT e.id, e.origin, e.kind, e.payload, e.writer_xid::text AS xid, s.xmin::text AS xmin
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin) s
       LEFT JOIN LATERAL (
         SELECT id, origin, kind, payload, writer_xid FROM cluster_events
         WHERE writer_xid >= ?::xid8 AND origin <> ? ORDER BY id
       ) e ON true`,
    ).all(String(this.#low), origin) as unknown as XidRow[];
    const events: ClusterEvent[] = [];
    for (const r of rows) {
      if (r.id === null) continue;
      const id = Number(r.id);
      if (this.#seen.has(id)) continue;
      this.#seen.set(id, BigInt(r.xid!));
      events.push({ id, origin: r.origin, kind: r.kind, payload: r.payload });
      if (events.length >= limit) break;
    }
    // Only when everything was taken: rows left unread this time must stay in the window.
    if (events.length < limit) {
      this.#low = BigInt(rows[0].xmin);
      for (const [id, xid] of this.#seen) if (xid < this.#low) this.#seen.delete(id);
    }
    return events;
  }
}
