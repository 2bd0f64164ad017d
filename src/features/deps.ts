import type { Config } from "../config/mod.ts";
import type { Store } from "../storage/mod.ts";

/** What every management service needs; the composition root (or a CLI command) supplies it. */
export interface ManagementDeps {
  readonly store: Store;
  /** The loaded config: its paths (Reset re-reads the file) and server section. */
  readonly config: Config;
  readonly now: () => number;
  /**
   * Makes a change visible to the running gateway at once (the control plane's reload). The CLI passes a
   * no-op: a running gateway notices another process's commit by polling the database.
   */
  readonly reload: () => void;
  /** Environment lookup for re-reading the config file (`${VAR}` references). */
  readonly env: (name: string) => string | undefined;
}
