import type { ManagementDeps } from "../deps.ts";

/** Captured request logs: the one change people make to them is clearing them. */
export class RequestLogService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Deletes every captured request; returns how many there were. */
  clear(): number {
    return this.#deps.store.requestLogs.clear();
  }
}
