import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { LiveEvent, LiveMessages } from "../../../src/dashboard/contract/usage.ts";

/** Connection state of the live stream. */
export type LiveStatus = "connecting" | "live" | "reconnecting";

/**
 * Follows `GET /dashboard/api/live` (SSE): snapshot, batched request events and in-flight counts.
 * EventSource retries by itself after a dropped connection; when the browser gives up (readyState
 * CLOSED, e.g. after an error status) this reconnects with backoff, so the screen never goes stale.
 */
export class LiveController implements ReactiveController {
  /** Requests in flight right now. */
  inflight = 0;
  /** Recent events, oldest first, at most `keep`. */
  events: readonly LiveEvent[] = [];
  /** Events dropped by the server because we fell behind. */
  dropped = 0;
  /** Connection state. */
  status: LiveStatus = "connecting";
  /** How many times the stream was (re)opened. */
  connects = 0;

  private source: EventSource | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = 1000;
  private url = "/dashboard/api/live";

  constructor(private readonly host: ReactiveControllerHost, private readonly keep = 200) {
    host.addController(this);
  }

  /** Opens the stream when the screen is shown. */
  hostConnected(): void {
    this.open();
  }

  /** Closes the stream when the screen goes away. */
  hostDisconnected(): void {
    clearTimeout(this.retryTimer);
    this.source?.close();
    this.source = null;
  }

  /** Uses another stream URL (from the state response) and reconnects. */
  setUrl(url: string): void {
    if (url === this.url) return;
    this.url = url;
    if (this.source) this.open();
  }

  private open(): void {
    this.source?.close();
    const source = new EventSource(this.url, { withCredentials: true });
    this.source = source;
    this.connects++;
    source.addEventListener("open", () => {
      this.status = "live";
      this.retryMs = 1000;
      this.host.requestUpdate();
    });
    source.addEventListener("snapshot", (e) => {
      const data = parse<"snapshot">(e);
      if (!data) return;
      this.inflight = data.inflight;
      this.events = data.recent.slice(-this.keep);
      this.status = "live";
      this.host.requestUpdate();
    });
    source.addEventListener("request", (e) => {
      const data = parse<"request">(e);
      if (!data) return;
      this.dropped += data.dropped;
      this.events = [...this.events, ...data.events].slice(-this.keep);
      this.host.requestUpdate();
    });
    source.addEventListener("inflight", (e) => {
      this.inflight = parse<"inflight">(e)?.count ?? this.inflight;
      this.host.requestUpdate();
    });
    source.addEventListener("error", () => {
      if (this.source !== source) return;
      this.status = "reconnecting";
      this.host.requestUpdate();
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.open(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, 15_000);
      }
    });
  }
}

/** The message's data as the contract names it; null for a frame that is not JSON (it is skipped). */
function parse<K extends keyof LiveMessages>(event: Event): LiveMessages[K] | null {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as LiveMessages[K];
  } catch {
    return null;
  }
}
