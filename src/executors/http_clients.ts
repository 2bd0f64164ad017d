import { Http1Pool, originOf } from "./http1_pool.ts";
import { MAX_HEAD_BYTES } from "./http1_wire.ts";
import type { UpstreamResponse } from "./upstream_response.ts";
import { fetchResponse } from "./fetch_response.ts";
import { usesEnvProxy } from "./proxy_env.ts";
import { fetchBody, type RequestBody } from "./request_body.ts";

/**
 * One HTTP client per provider: keep-alive pools of the gateway's HTTP/1.1 client plus a limit of
 * requests in flight (default 100, queued beyond for a bounded time), so at most that many connections.
 * Closed when the provider is disabled, deleted, or on shutdown. URLs the environment routes through a
 * proxy go through `fetch` instead.
 */
export const MAX_CONNECTIONS = 100;
/** Longest wait for a free request slot by default; past it the attempt fails over instead of queueing on. */
export const POOL_WAIT_MS = 30_000;
/** How long an idle connection is kept (shorter when the server announces a shorter keep-alive). */
export const IDLE_TIMEOUT_MS = 90_000;

/** How one upstream URL is called: a pool and the request target, or fetch through a proxy. */
type UrlRoute = { readonly pool: Http1Pool; readonly target: string } | "fetch";

/** URL routes remembered per client; a provider has a handful of URLs (one per model at most). */
const MAX_REMEMBERED_URLS = 1000;

/** What one provider's client allows (YAML `limits:`). */
export interface ClientLimits {
  /** Requests in flight at once, so connections. */
  readonly maxConnections: number;
  /** Longest wait for a free slot. */
  readonly poolWaitMs: number;
  /** Longest response head accepted. */
  readonly maxHeadBytes: number;
}

/** The limits when the config says nothing. */
export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  maxConnections: MAX_CONNECTIONS,
  poolWaitMs: POOL_WAIT_MS,
  maxHeadBytes: MAX_HEAD_BYTES,
};

/** One provider's client and its in-flight limit. */
export class ProviderClient {
  #inFlight = 0;
  #waiting: (() => void)[] = [];
  #closed = false;
  readonly #env: (name: string) => string | undefined;
  readonly #limits: ClientLimits;
  readonly #pools = new Map<string, Http1Pool>();
  readonly #routes = new Map<string, UrlRoute>();
  #fetchClient: Deno.HttpClient | null = null;

  /** `env` answers the proxy variables (HTTPS_PROXY, NO_PROXY, …) that decide how URLs are reached. */
  constructor(env: (name: string) => string | undefined, limits: ClientLimits = DEFAULT_CLIENT_LIMITS) {
    this.#env = env;
    this.#limits = limits;
  }

  /** The limits this client was made with. */
  get limits(): ClientLimits {
    return this.#limits;
  }

  /**
   * Takes a request slot: at once (no promise, no microtask) while fewer than `maxConnections` are in
   * flight, else a promise that resolves when one frees up, or with null once `poolWaitMs` passed (an
   * overloaded account should hand the request to the next one, not hold it for minutes). The returned
   * function releases the slot (call exactly once).
   */
  acquire(): (() => void) | Promise<(() => void) | null> {
    if (this.#inFlight < this.#limits.maxConnections) return this.#take();
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(this.#take());
      };
      // A timer only for requests that must wait: the fast path above stays free of them.
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(granted);
        if (at !== -1) this.#waiting.splice(at, 1);
        resolve(null);
      }, this.#limits.poolWaitMs);
      this.#waiting.push(granted);
    });
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

  /** POSTs to `url`; resolves at the response head. Aborting `signal` ends the call and its body. */
  post(
    url: string,
    headers: Record<string, string>,
    body: RequestBody,
    signal: AbortSignal,
  ): Promise<UpstreamResponse> {
    if (this.#closed) return Promise.reject(new Error("provider client closed"));
    const route = this.#routes.get(url) ?? this.#route(url);
    if (route !== "fetch") return route.pool.post(route.target, headers, body, signal);
    const init = { method: "POST", headers, body: fetchBody(body), signal, client: this.#proxyClient() };
    return fetch(url, init).then(fetchResponse);
  }

  #route(url: string): UrlRoute {
    const parsed = new URL(url);
    let route: UrlRoute;
    if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || usesEnvProxy(parsed, this.#env)) {
      // fetch also gives the clear error for a scheme the gateway cannot call.
      route = "fetch";
    } else {
      const origin = originOf(parsed);
      const key = `${parsed.protocol}//${origin.host}`;
      let pool = this.#pools.get(key);
      if (pool === undefined) {
        pool = new Http1Pool(origin, {
          // As many idle as may be open at once: a smaller cap closed connections a steady load had just
          // used and opened new ones a moment later (about 900 a second at 50 client connections, each
          // with its buffers), which cost 15 % of the req/s and most of the native memory growth under
          // load. Idle ones still close after IDLE_TIMEOUT_MS.
          maxIdle: this.#limits.maxConnections,
          idleTimeoutMs: IDLE_TIMEOUT_MS,
          maxHeadBytes: this.#limits.maxHeadBytes,
        });
        this.#pools.set(key, pool);
      }
      route = { pool, target: `${parsed.pathname}${parsed.search}` };
    }
    if (this.#routes.size >= MAX_REMEMBERED_URLS) this.#routes.clear();
    this.#routes.set(url, route);
    return route;
  }

  /**
   * The fetch client for proxied URLs. Its idle pool is as large as the in-flight limit: hyper races a
   * new connection against waiting for a busy one and pools the loser, so a smaller idle cap closed and
   * reopened a connection on nearly every request under load (measured: ~3,000 sockets in TIME_WAIT per
   * second at 50 concurrent requests).
   */
  #proxyClient(): Deno.HttpClient {
    this.#fetchClient ??= Deno.createHttpClient({
      poolMaxIdlePerHost: this.#limits.maxConnections,
      poolIdleTimeout: IDLE_TIMEOUT_MS,
    });
    return this.#fetchClient;
  }

  /** Requests currently in flight. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Idle keep-alive connections across this client's pools. */
  get idleConnections(): number {
    let idle = 0;
    for (const pool of this.#pools.values()) idle += pool.idleCount;
    return idle;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Closes idle connections; calls in flight finish and then close theirs. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pool of this.#pools.values()) pool.close();
    this.#fetchClient?.close();
  }
}

/** The clients of every provider, keyed by provider id and a fingerprint of its connection settings. */
export class ProviderClients {
  #clients = new Map<string, { fingerprint: string; client: ProviderClient }>();
  readonly #env: (name: string) => string | undefined;
  readonly #limits: ClientLimits;

  /** `limits` apply to every provider's client. */
  constructor(env: (name: string) => string | undefined, limits: ClientLimits = DEFAULT_CLIENT_LIMITS) {
    this.#env = env;
    this.#limits = limits;
  }

  /** The client for a provider, created on first use. */
  get(providerId: string, fingerprint: string): ProviderClient {
    const existing = this.#clients.get(providerId);
    if (existing && existing.fingerprint === fingerprint && !existing.client.closed) return existing.client;
    existing?.client.close();
    const client = new ProviderClient(this.#env, this.#limits);
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
