import type { DatabaseSync } from "node:sqlite";
import type { ComboConfig, ProviderConfig } from "../config/mod.ts";
import { CombosRepo } from "./combos_repo.ts";
import type { Database } from "./database.ts";
import { ProvidersRepo } from "./providers_repo.ts";
import type { SecretBox } from "./secret_box.ts";

/** What `gateway doctor` learns from a SQLite file before judging it. */
export interface SqliteFacts {
  /** `ok`, or SQLite's first complaint. */
  readonly quickCheck: string;
  /** The applied migration (`PRAGMA user_version`). */
  readonly schema: number;
}

/** Runs SQLite's quick integrity check and reads the applied schema version (read-only). */
export function sqliteFacts(db: DatabaseSync): SqliteFacts {
  const check = db.prepare("PRAGMA quick_check").get() as { quick_check: string };
  const version = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return { quickCheck: check.quick_check, schema: Number(version.user_version) };
}

/** The providers and combos the database serves (keys opened with `box`), without changing anything. */
export function servedConfig(
  db: Database,
  box: SecretBox,
): { providers: ProviderConfig[]; combos: ComboConfig[] } {
  return {
    providers: new ProvidersRepo(db, box).list(),
    combos: new CombosRepo(db).list().map((c) => ({ name: c.name, models: c.models })),
  };
}
