import { fileExists } from "../config/mod.ts";
import { isPostgresUrl, Store } from "../storage/mod.ts";
import { copyTables, countTables, type TableCount } from "../storage/postgres/copy_tables.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { configForCommand } from "./context.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Help text of `gateway db`. */
export const DB_HELP = `Usage:
  gateway db migrate-to-postgres <postgres-url> [--dry-run] [--config <file>]

Copies the embedded SQLite database (beside the config) into an empty PostgreSQL database: the schema is
created, every table is copied in one transaction, and the row counts of both are compared after. Stop
the gateway first. --dry-run only shows what would be copied. Sealed credentials move as they are, so
every instance on the PostgreSQL database needs the same secret key (the key file or GATEWAY_SECRET_KEY).`;

/** `gateway db …` */
export function dbCommand(args: readonly string[], io: CliIo): number {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(
    rest,
    { "dry-run": { type: "boolean" } },
    `db ${sub ?? ""}`.trim(),
  );
  if (sub === undefined || sub === "--help" || sub === "-h" || values.help) {
    io.out(DB_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  if (sub !== "migrate-to-postgres") {
    throw new UsageError(`db: unknown command "${sub}" (see gateway db --help)`);
  }
  const [url, extra] = positionals;
  if (url === undefined || !isPostgresUrl(url)) {
    throw new UsageError("db migrate-to-postgres: needs a postgres:// or postgresql:// URL");
  }
  if (extra !== undefined) throw new UsageError(`db migrate-to-postgres: unexpected argument "${extra}"`);
  const config = configForCommand(stringFlag(values, "config"), io);
  if (!fileExists(config.paths.dbPath)) {
    io.err(`gateway: there is no SQLite database at ${config.paths.dbPath} to copy`);
    return EXIT_FAILURE;
  }
  const secret = io.env("GATEWAY_SECRET_KEY");
  const source = Store.openWithSecret(config.paths.dbPath, config.paths.secretKeyPath, secret);
  try {
    // One command, no event loop to keep responsive: committing or counting millions of rows may take minutes.
    const target = Store.openWithSecret(url, config.paths.secretKeyPath, secret, {
      callTimeoutMs: COPY_CALL_TIMEOUT_MS,
    });
    try {
      return migrate(source, target, Boolean(values["dry-run"]), io);
    } finally {
      target.close();
    }
  } finally {
    source.close();
  }
}

/** How long one PostgreSQL call of the copy may take (the final COMMIT of a large copy is one call). */
const COPY_CALL_TIMEOUT_MS = 30 * 60_000;

function migrate(source: Store, target: Store, dryRun: boolean, io: CliIo): number {
  const before = countTables(source.db, target.db);
  const occupied = before.filter((t) => t.target > 0);
  io.out(dryRun ? "Dry run: nothing is written." : "Copying the SQLite database into PostgreSQL…");
  printCounts(before, io, "rows in PostgreSQL now");
  if (occupied.length > 0) {
    io.err(
      `gateway: the PostgreSQL database is not empty (${
        occupied.map((t) => `${t.table}: ${t.target}`).join(", ")
      }); copy into an empty database`,
    );
    return EXIT_FAILURE;
  }
  if (dryRun) {
    io.out(`Would copy ${before.reduce((n, t) => n + t.source, 0)} rows in ${before.length} tables.`);
    return EXIT_OK;
  }
  copyTables(source.db, target.db, (table, rows) => io.out(`  ${table}: ${rows} rows copied`));
  const after = countTables(source.db, target.db);
  printCounts(after, io, "rows in PostgreSQL");
  const wrong = after.filter((t) => t.source !== t.target);
  if (wrong.length > 0) {
    io.err(`gateway: the counts differ after the copy: ${wrong.map((t) => t.table).join(", ")}`);
    return EXIT_FAILURE;
  }
  io.out("Counts match. Point the gateway at it: storage.url in the config, or GATEWAY_DATABASE_URL.");
  return EXIT_OK;
}

function printCounts(counts: readonly TableCount[], io: CliIo, targetLabel: string): void {
  const width = Math.max(...counts.map((c) => c.table.length));
  io.out(`  ${"table".padEnd(width)}  ${"rows in SQLite".padStart(14)}  ${targetLabel}`);
  for (const c of counts) io.out(`  ${c.table.padEnd(width)}  ${String(c.source).padStart(14)}  ${c.target}`);
}
