import { type PgDatabase, PostgresError } from "./pg_database.ts";

/** What `gateway doctor` learns from a PostgreSQL server before judging it. */
export interface PgServerFacts {
  /** `server_version_num`, e.g. 150004. */
  readonly versionNum: number;
  /** The newest applied migration, or null when the gateway's tables do not exist yet. */
  readonly schema: number | null;
  /** A read-only standby (in recovery) rather than a primary. */
  readonly standby: boolean;
}

/** Reads the server's version, the gateway's applied schema and whether it is a standby. */
export function pgServerFacts(db: PgDatabase): PgServerFacts {
  const version = db.prepare("SHOW server_version_num").get() as { server_version_num: string };
  const standby = db.prepare("SELECT pg_is_in_recovery() AS standby").get() as { standby: boolean };
  return {
    versionNum: Number(version.server_version_num),
    schema: appliedSchema(db),
    standby: standby.standby,
  };
}

function appliedSchema(db: PgDatabase): number | null {
  try {
    const row = db.prepare("SELECT coalesce(max(version), 0) AS v FROM schema_migrations").get() as {
      v: number;
    };
    return Number(row.v);
  } catch (error) {
    if (error instanceof PostgresError && error.code === "42P01") return null; // no table: nothing applied yet
    throw error;
  }
}

/**
 * Whether this user can write, proved in a transaction that is rolled back: a probe row, or on an empty
 * database (no schema yet) a table. Throws the server's refusal.
 */
export function pgWriteProbe(db: PgDatabase, schema: number | null): void {
  db.exec("BEGIN");
  try {
    if (schema === null) db.exec("CREATE TABLE gateway_doctor_probe (x BIGINT)");
    else {
      db.prepare("INSERT INTO cluster_members (origin, label, seen_at, wants) VALUES (?, ?, ?, '')")
        .run(`doctor-${crypto.randomUUID()}`, "doctor", 0);
    }
  } finally {
    db.exec("ROLLBACK");
  }
}
