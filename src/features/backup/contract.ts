/** Backup contract: Export (a YAML download, not JSON) and Reset to the config file. */
import type { Route } from "../../dashboard/contract/api.ts";

/** Answer of `POST /dashboard/api/reset`: what was seeded again from the YAML file. */
export interface ResetResult {
  readonly ok: true;
  readonly seeded: {
    readonly providers: number;
    readonly combos: number;
    readonly savers: boolean;
    readonly pricing: number;
  };
}

/** The backup routes that answer JSON. */
export interface BackupApi {
  readonly "POST /reset": Route<undefined, ResetResult>;
}
