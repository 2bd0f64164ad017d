import type { ManagementDeps } from "../deps.ts";

/** The request log: the one change people make to it is clearing it. */
export class RequestLogService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /**
   * Deletes every captured body and every request of the index (usage rows, and so spend and analytics,
   * stay); returns how many requests were listed.
   */
  clear(): number {
    const store = this.#deps.store;
    store.requestLogs.clear();
    return store.requests.clear();
  }
}
