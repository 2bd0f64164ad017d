import { databaseLabel, type HomePaths } from "../config/mod.ts";
import {
  loadPgMigrations,
  PgDatabase,
  pgServerFacts,
  pgWriteProbe,
  PostgresError,
  sealedSample,
  servedConfig,
} from "../storage/mod.ts";
import {
  checkSecretKey,
  type DatabaseReport,
  type DoctorOptions,
  fail,
  type Finding,
  ok,
  warn,
} from "./doctor_checks.ts";

const GRANT_FIX =
  "use the user that created the gateway's tables, or GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public (and USAGE ON ALL SEQUENCES) TO <user>";

/** What to do about a failed connection, by its cause. */
function connectFix(error: unknown, url: URL): string {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? "";
  const where = `${url.hostname}:${url.port || 5432}`;
  const database = decodeURIComponent(url.pathname.slice(1)) || "(the user's name)";
  if (e.code === "28P01" || e.code === "28000") {
    return "check the user and password in storage.url or GATEWAY_DATABASE_URL, and pg_hba.conf on the server";
  }
  if (e.code === "3D000") {
    return `create the database: createdb -h ${url.hostname} -p ${url.port || 5432} -U ${
      decodeURIComponent(url.username) || "<user>"
    } ${database}`;
  }
  if (/ECONNREFUSED|refused/i.test(message)) {
    return `start PostgreSQL, or correct the host and port (${where}) in storage.url or GATEWAY_DATABASE_URL`;
  }
  return `check that ${where} is reachable from here (DNS, firewall, listen_addresses) and the URL is right`;
}

/**
 * The PostgreSQL database: it accepts a connection, its schema is this gateway's (or older: migrations
 * apply on start), this user may write (a primary, not a read-only standby), and the secret key opens the
 * credentials stored there. Every failure says what to change.
 */
export function checkPostgres(url: string, paths: HomePaths, options: DoctorOptions): DatabaseReport {
  let served: DatabaseReport["served"] = null;
  const findings = postgresFindings(url, paths, options, (report) => served = report);
  return { findings, served };
}

function postgresFindings(
  url: string,
  paths: HomePaths,
  options: DoctorOptions,
  serve: (served: NonNullable<DatabaseReport["served"]>) => void,
): Finding[] {
  const label = databaseLabel({ storage: { url }, paths });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [
      fail("database", `${label} is not a valid URL`, "use postgres://user:password@host:5432/database"),
    ];
  }
  let db: PgDatabase;
  try {
    db = PgDatabase.connect(url, options.connectTimeoutMs);
  } catch (error) {
    return [
      fail("database", `cannot connect to ${label}: ${(error as Error).message}`, connectFix(error, parsed)),
    ];
  }
  const found: Finding[] = [];
  try {
    const facts = pgServerFacts(db);
    const version = facts.versionNum;
    if (version < 130000) {
      found.push(
        fail(
          "database",
          `${label} runs PostgreSQL ${version}; the gateway needs 13 or later`,
          "upgrade PostgreSQL",
        ),
      );
      return found;
    }
    const schema = facts.schema;
    const latest = loadPgMigrations().at(-1)?.version ?? 0;
    if (schema === null) {
      found.push(
        ok("database", `${label} accepts connections (empty: the schema is created on first start)`),
      );
    } else if (schema > latest) {
      found.push(warn(
        "database",
        `${label} has schema ${schema}, newer than this gateway's ${latest}`,
        "run the same gateway version on every instance (upgrade this one)",
      ));
    } else {
      found.push(ok(
        "database",
        schema === latest
          ? `${label} accepts connections (schema ${schema})`
          : `${label} accepts connections (schema ${schema}; migrations up to ${latest} apply on next start)`,
      ));
    }
    if (facts.standby) {
      found.push(
        fail("database", `${label} is a read-only standby`, "point the gateway at the primary server"),
      );
      return found;
    }
    try {
      pgWriteProbe(db, schema);
      found.push(ok("database", `user ${decodeURIComponent(parsed.username) || "(default)"} may write`));
    } catch (error) {
      found.push(fail(
        "database",
        `user ${decodeURIComponent(parsed.username) || "(default)"} cannot write: ${
          (error as Error).message
        }`,
        schema === null
          ? "grant it CREATE on the schema (GRANT CREATE ON SCHEMA public TO <user>) or use the database's owner"
          : GRANT_FIX,
      ));
    }
    const secret = checkSecretKey(paths, options, schema === null ? undefined : sealedSample(db));
    found.push(...secret.findings);
    if (schema !== null && secret.box !== null) serve(servedConfig(db, secret.box));
  } catch (error) {
    const denied = error instanceof PostgresError && error.code === "42501";
    found.push(fail(
      "database",
      `${label}: ${(error as Error).message}`,
      denied ? GRANT_FIX : "see the message above",
    ));
  } finally {
    try {
      db.close();
    } catch { /* already reported */ }
  }
  return found;
}
