import type { SqlDatabase } from "../sql.ts";

/**
 * Tables that hold nothing worth moving: live coordination state each database keeps for itself, and
 * sign-ins in progress (their polling process stops with the gateway that is being moved).
 */
const SKIPPED = new Set([
  "cluster_events",
  "cluster_members",
  "config_generation",
  "oauth_leases",
  "signin_sessions",
]);
/** Parents first, so foreign keys hold while rows go in; the rest follow in name order. */
const FIRST = ["api_keys", "inventory_providers", "upstream_keys"];
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMS = 60_000;
/**
 * Rows per chunk for tables whose rows can be megabytes (a stored conversation, a part of one: up to 1 Mi
 * characters each), so one chunk stays tens of MB instead of thousands of rows of them.
 */
const LARGE_ROW_CHUNKS: Readonly<Record<string, number>> = {
  stored_response_parts: 16,
  stored_responses: 16,
};

/** One table's row counts, before and after a copy. */
export interface TableCount {
  readonly table: string;
  readonly source: number;
  readonly target: number;
}

/** The tables to copy, in order, with the columns both databases have. */
export function copyPlan(source: SqlDatabase, target: SqlDatabase): { table: string; columns: string[] }[] {
  const tables = (source.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all() as { name: string }[]).map((r) => r.name).filter((t) => !SKIPPED.has(t));
  tables.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return tables.map((table) => {
    const sourceColumns = (source.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
      .map((c) => c.name);
    const targetColumns = new Set(
      (target.prepare(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?",
      ).all(table) as { column_name: string }[]).map((c) => c.column_name),
    );
    return { table, columns: sourceColumns.filter((c) => targetColumns.has(c)) };
  });
}

function rank(table: string): number {
  const index = FIRST.indexOf(table);
  return index === -1 ? FIRST.length : index;
}

/**
 * Reads a table in chunks: by rowid where the table has one (a keyset, so a million rows cost the same per
 * chunk), by offset for WITHOUT ROWID tables (the daily rollup, which is small).
 */
function pager(
  db: SqlDatabase,
  table: string,
  columns: string,
  chunk: number,
): () => Record<string, unknown>[] {
  const withoutRowid = /WITHOUT ROWID/i.test(
    (db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(table) as { sql: string }).sql,
  );
  if (withoutRowid) {
    const read = db.prepare(`SELECT ${columns} FROM ${table} LIMIT ? OFFSET ?`);
    let offset = 0;
    return () => {
      const rows = read.all(chunk, offset) as Record<string, unknown>[];
      offset += rows.length;
      return rows;
    };
  }
  const read = db.prepare(
    `SELECT rowid AS _r, ${columns} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  let last = Number.MIN_SAFE_INTEGER;
  return () => {
    const rows = read.all(last, chunk) as Record<string, unknown>[];
    if (rows.length > 0) last = Number(rows[rows.length - 1]._r);
    return rows;
  };
}

/** Row counts of every table to copy, in both databases. */
export function countTables(source: SqlDatabase, target: SqlDatabase): TableCount[] {
  return copyPlan(source, target).map(({ table }) => ({
    table,
    source: count(source, table),
    target: count(target, table),
  }));
}

function count(db: SqlDatabase, table: string): number {
  return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
}

/**
 * Copies every table from a SQLite database into an empty PostgreSQL one, in one transaction, in chunks
 * of rows read in rowid order; sealed credentials move as they are (the same secret key opens them).
 * Identity sequences are moved past the copied ids. `progress` hears each table's copied count.
 */
export function copyTables(
  source: SqlDatabase,
  target: SqlDatabase,
  progress: (table: string, rows: number) => void = () => {},
): void {
  const plan = copyPlan(source, target);
  target.exec("BEGIN");
  try {
    for (const { table, columns } of plan) {
      const quoted = columns.map((c) => `"${c}"`).join(", ");
      const chunk = Math.min(
        Math.max(1, Math.floor(MAX_PARAMS / columns.length)),
        LARGE_ROW_CHUNKS[table] ?? Number.POSITIVE_INFINITY,
      );
      const page = pager(source, table, quoted, chunk);
      let copied = 0;
      for (;;) {
        const rows = page();
        if (rows.length === 0) break;
        const values: unknown[] = [];
        const tuples = rows.map((row) => {
          const start = values.length;
          for (const c of columns) values.push(row[c]);
          return `(${columns.map((_, i) => `?${start + i + 1}`).join(", ")})`;
        });
        target.prepare(`INSERT INTO ${table} (${quoted}) VALUES ${tuples.join(", ")}`).run(
          ...(values as never[]),
        );
        copied += rows.length;
      }
      progress(table, copied);
      if (columns.includes("id")) {
        // Serial ids continue after the copied ones (tables whose id is text have no sequence).
        const sequence = (target.prepare("SELECT pg_get_serial_sequence(?, 'id') AS s").get(table) as {
          s: string | null;
        }).s;
        if (sequence !== null) {
          target.prepare(`SELECT setval(?, coalesce(max(id), 0) + 1, false) FROM ${table}`).all(sequence);
        }
      }
    }
    target.exec("COMMIT");
  } catch (error) {
    target.exec("ROLLBACK");
    throw error;
  }
}
