import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { StateMeta, StateSection, StateSections } from "../../../src/dashboard/contract/mod.ts";
import type { Alert } from "../../../src/dashboard/contract/usage.ts";
import { getState } from "./client.ts";
import type { QuerySource } from "./query_controller.ts";

/**
 * Loads one state section for a screen and keeps it fresh: refetches on demand, optionally polls, and
 * aborts in-flight reads when the screen leaves the page. Each screen owns its own data (no global store).
 */
export class StateController<S extends StateSection> implements ReactiveController {
  /** Last data received; undefined until the first successful read. */
  data: StateSections[S] | undefined = undefined;
  /** Meta of the last response. */
  meta: StateMeta | undefined = undefined;
  /** Alerts of the last response. */
  alerts: readonly Alert[] = [];
  /** Message of the last failed read, or "" when the last read worked. */
  error = "";
  /** HTTP status of the last failed read. */
  errorStatus = 0;
  /** True while the first read is in flight. */
  loading = true;

  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `query`, when given, supplies the read's parameters from the address bar and re-reads on change. */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly section: S,
    private readonly pollMs = 0,
    private readonly query?: QuerySource,
  ) {
    host.addController(this);
    query?.onChange(() => void this.refresh());
  }

  /** Starts loading when the screen is attached. */
  hostConnected(): void {
    void this.refresh();
    if (this.pollMs > 0) this.timer = setInterval(() => void this.refresh(true), this.pollMs);
  }

  /** Stops polling and cancels reads. */
  hostDisconnected(): void {
    clearInterval(this.timer);
    this.abort?.abort();
  }

  /** Reloads; a quiet refresh keeps showing old data and ignores transient errors. */
  async refresh(quiet = false): Promise<void> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    let result;
    try {
      result = await getState(this.section, this.query?.params() ?? {}, abort.signal);
    } catch {
      return; // aborted by a newer refresh or by leaving the screen
    }
    if (abort.signal.aborted) return;
    this.loading = false;
    if (result.ok) {
      this.data = result.data.data;
      this.meta = result.data.meta;
      this.alerts = result.data.alerts;
      this.error = "";
      this.errorStatus = 0;
    } else if (!quiet || this.data === undefined) {
      this.error = result.message;
      this.errorStatus = result.status;
    }
    this.host.requestUpdate();
  }
}
